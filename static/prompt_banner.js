// The prompt banner of the table page (vtt/web/prompt_banner.py): fixed over the top of the map. For the seat a
// decision asks, its question and answer buttons, a countdown to the server's deadline and a short beep when it
// appears; for everyone else one slim line saying what the table waits for.
//
// `prompt`: null, or {id, mine, text, answers: [{key, label, tone}], deadline, total}: `deadline` is when the
// table's time limit answers, in milliseconds since the epoch (null: no limit), `total` the limit in seconds. The
// browser counts down by itself; the server sends nothing while it waits.
const SOUND_KEY = "vtt.promptSound";
const TICK_MS = 250;

function soundOn() {
  try {
    return window.localStorage.getItem(SOUND_KEY) !== "off";
  } catch {
    return true;
  }
}

let audio = null;

function beep() {
  try {
    audio = audio || new (window.AudioContext || window.webkitAudioContext)();
    if (audio.state === "suspended") audio.resume(); // until the first click the browser may keep it silent
    const now = audio.currentTime;
    for (const [start, freq] of [[0, 880], [0.18, 1175]]) {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.type = "sine";
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, now + start);
      gain.gain.exponentialRampToValueAtTime(0.25, now + start + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + start + 0.15);
      osc.connect(gain).connect(audio.destination);
      osc.start(now + start);
      osc.stop(now + start + 0.16);
    }
    return true;
  } catch {
    return false;
  }
}

export default {
  template: `
    <div v-if="prompt" :class="['prompt-banner', prompt.mine ? 'prompt-mine' : 'prompt-wait']" role="status"
         aria-live="assertive" :data-decision="prompt.id" :data-mine="prompt.mine ? 'yes' : 'no'">
      <div class="prompt-row">
        <span class="prompt-text">{{ line }}</span>
        <button v-if="prompt.mine" type="button" class="prompt-sound" :aria-pressed="sound ? 'true' : 'false'"
                :title="sound ? 'Sound on: click to mute' : 'Sound off: click to hear prompts'"
                :aria-label="sound ? 'Mute the prompt sound' : 'Turn the prompt sound on'" @click="toggleSound">
          <i class="q-icon notranslate material-icons" aria-hidden="true">{{ sound ? "volume_up" : "volume_off" }}</i>
        </button>
      </div>
      <div v-if="prompt.mine && prompt.answers.length" class="prompt-answers">
        <button v-for="a in prompt.answers" :key="a.key" type="button" :class="['prompt-answer', 'prompt-' + a.tone]"
                :data-answer="a.key" @click="answer(a.key)">{{ a.label }}</button>
      </div>
      <div v-if="prompt.mine && left !== null" class="prompt-countdown">
        <div class="prompt-bar"><div class="prompt-fill" :style="{ width: share + '%' }"></div></div>
        <span class="prompt-seconds" :data-seconds="left">{{ left }} s</span>
      </div>
    </div>`,
  props: { prompt: { type: Object, default: null } },
  emits: ["answer"],
  data() {
    return { now: Date.now(), sound: soundOn() };
  },
  computed: {
    left() {
      const deadline = this.prompt && this.prompt.deadline;
      if (typeof deadline !== "number") return null;
      return Math.max(0, Math.ceil((deadline - this.now) / 1000));
    },
    share() {
      const total = this.prompt && this.prompt.total;
      if (this.left === null || !total) return 0;
      return Math.max(0, Math.min(100, (100 * (this.prompt.deadline - this.now)) / (total * 1000)));
    },
    line() {
      if (!this.prompt) return "";
      return this.prompt.mine || this.left === null ? this.prompt.text : this.prompt.text + " (" + this.left + " s)";
    },
  },
  watch: {
    prompt: {
      immediate: true,
      handler(next, before) {
        const id = next && next.mine ? next.id : null;
        const was = before && before.mine ? before.id : null;
        if (id !== null && id !== was && this.sound) beep();
        this.now = Date.now();
        this.tick();
      },
    },
  },
  unmounted() {
    this.stopTicking();
  },
  methods: {
    // The clock runs only while a countdown is shown: a banner without a deadline, or past it, needs no tick.
    tick() {
      const deadline = this.prompt && this.prompt.deadline;
      if (typeof deadline !== "number" || deadline <= this.now) {
        this.stopTicking();
        return;
      }
      if (!this.timer) {
        this.timer = window.setInterval(() => {
          this.now = Date.now();
          this.tick();
        }, TICK_MS);
      }
    },
    stopTicking() {
      if (this.timer) window.clearInterval(this.timer);
      this.timer = null;
    },
    answer(key) {
      this.$emit("answer", { id: this.prompt.id, key });
    },
    toggleSound() {
      this.sound = !this.sound;
      try {
        window.localStorage.setItem(SOUND_KEY, this.sound ? "on" : "off");
      } catch {
        // a browser that keeps no storage forgets the choice on reload
      }
      if (this.sound) beep();
    },
  },
};
