// The roll log and the chat's messages (vtt/web/roll_log.py, vtt/web/chat_panel.py): entries newest first, each
// built once as plain DOM from the JSON the server worded for this seat. Every text is set with textContent (text,
// never HTML). A new entry is `add([entry])`, an undo or redo `mark(seqs, undone)`; Vue never re-renders the list.
//
// look "log": entry {seq, head, undone, meta, events: [{text, quiet, rolls: [roll], needed: [text]}]}, roll
//   {label, result, faces: [[text, marks]], typed, outcome, dl, doubles, counting, fumble, changes, modifiers}; the server
//   leaves out a field at its default (false, null, an empty list).
// look "chat": entry {seq, kind, head, whisper, bold, texts: [text]}.
// `keep`: the most entries shown (0: all); older ones leave the page.

function el(tag, classes, text) {
  const node = document.createElement(tag);
  if (classes) node.className = classes;
  if (text !== undefined && text !== null) node.textContent = String(text);
  return node;
}

// performance.measure around the handlers, only when a benchmark asks (bench/web.py sets window.__vttMeasure)
function measure(name, start) {
  if (window.__vttMeasure === true) performance.measure(name, { start });
}

// NiceGUI's page template keeps `#esm-fallback ~ *` (hiding the page when the browser has no ES modules) after the
// fallback element is gone. A `~` rule on every element makes the browser restyle a list's other entries whenever one
// is inserted: with 300 entries in the log, a new entry's style and layout took 56–129 ms instead of about 1 ms. An
// ES module runs only where modules work, so the rule has nothing left to do: it is dropped as this module is
// loaded, before the page's elements are made (dropped later, it restyled the whole page, its big map included).
function dropFallbackRule() {
  for (const sheet of document.styleSheets) {
    let rules;
    try {
      rules = sheet.cssRules;
    } catch (e) {
      continue;
    }
    for (let i = rules.length - 1; i >= 0; i--) {
      if (rules[i].selectorText === "#esm-fallback ~ *") sheet.deleteRule(i);
    }
  }
}
dropFallbackRule();

function texts(value) {
  return Array.isArray(value) ? value : [];
}

function rollNode(roll) {
  const box = el("div", "nicegui-column gap-0 w-full roll");
  box.dataset.result = String(roll.result);
  box.append(el("div", "text-xs text-stone-500", roll.label));
  const line = el("div", "nicegui-row items-center gap-1 flex-wrap");
  const faces = texts(roll.faces);
  if (!faces.length) line.append(el("div", "text-xs italic text-stone-500", "no dice"));
  for (const face of faces) {
    const marks = Array.isArray(face) ? texts(face[1]) : [];
    const die = el("div", "die", Array.isArray(face) ? face[0] : face);
    for (const mark of marks) if (mark === "double" || mark === "fumble" || mark === "miss") die.classList.add("die-" + mark);
    line.append(die);
  }
  if (roll.typed === true) {
    const typed = el("div", "die-typed", "typed");
    typed.dataset.typed = "yes";
    typed.title = "Faces typed from physical dice";
    line.append(typed);
  }
  line.append(el("div", "font-bold ml-1", roll.outcome));
  if (roll.dl) line.append(el("div", "text-xs text-stone-600", roll.dl));
  if (roll.doubles) line.append(el("div", "badge badge-doubles", roll.doubles));
  if (roll.counting) line.append(el("div", "text-xs text-stone-600", roll.counting));
  else if (roll.fumble) line.append(el("div", "badge badge-fumble", "Fumble"));
  box.append(line);
  for (const change of texts(roll.changes)) box.append(el("div", "text-xs text-indigo-800", change));
  for (const mod of texts(roll.modifiers)) box.append(el("div", "text-xs text-amber-900", mod));
  return box;
}

function logNode(entry) {
  const card = el("div", "q-card nicegui-column w-full p-2 gap-1 log-entry");
  if (entry.undone) card.classList.add("log-undone");
  if (entry.meta) card.classList.add("log-meta");
  card.append(el("div", "text-xs text-stone-500", entry.head));
  for (const event of texts(entry.events)) {
    if (event.quiet) {
      card.append(el("div", "text-xs text-stone-600", event.text));
      continue;
    }
    card.append(el("div", "text-sm log-text", event.text));
    for (const roll of texts(event.rolls)) card.append(rollNode(roll));
    for (const needed of texts(event.needed)) card.append(el("div", "text-xs text-indigo-800", needed));
  }
  return card;
}

function chatNode(entry) {
  const line = el("div", "nicegui-column w-full gap-0 chat-message");
  line.dataset.kind = String(entry.kind);
  if (entry.whisper) line.classList.add("chat-whisper");
  line.append(el("div", "text-xs text-stone-500 chat-from", entry.head));
  for (const text of texts(entry.texts)) {
    line.append(el("div", "text-sm chat-text whitespace-pre-wrap" + (entry.bold ? " font-bold" : ""), text));
  }
  return line;
}

// Entries are kept in chunks of CHUNK, each with a transform of its own (table.css): a new entry moves every chunk
// below its own, and Chromium moves a transformed box without painting its content again. Entries side by side in one
// list were all painted again at each new one (with 40 entries, 2.6 ms of paint per move in each page; now 0.4 ms).
const CHUNK = 8;

export default {
  template: `<div class="nicegui-column log-view"></div>`,
  props: {
    look: { type: String, default: "log" },
    keep: { type: Number, default: 0 },
    entries: { type: Array, default: () => [] },
  },
  mounted() {
    this.rebuild(this.entries);
  },
  watch: {
    // a full update of the element (the page drawn again): show exactly the entries it carries
    entries(list) {
      this.rebuild(list);
    },
  },
  methods: {
    rebuild(list) {
      this.$el.replaceChildren();
      this.shown = 0;
      this.add(list);
    },
    // Newest first: an entry goes before the first one with a lower number, a new newest one into the first chunk
    // (a new chunk when that one is full); one already shown is replaced. `keep` drops the oldest.
    add(list) {
      const start = performance.now();
      const root = this.$el;
      for (const entry of texts(list)) {
        if (!entry || typeof entry.seq !== "number") continue;
        const node = this.look === "chat" ? chatNode(entry) : logNode(entry);
        node.dataset.seq = String(entry.seq);
        let [chunk, next] = this.placeOf(entry.seq);
        if (next && Number(next.dataset.seq) === entry.seq) {
          next.replaceWith(node);
          continue;
        }
        if (!chunk || (next === root.firstElementChild.firstElementChild && chunk.childElementCount >= CHUNK)) {
          chunk = root.insertBefore(el("div", "log-chunk"), root.firstElementChild);
          next = null;
        }
        chunk.insertBefore(node, next);
        this.shown += 1;
      }
      const keep = Number(this.keep) || 0;
      while (keep && this.shown > keep) {
        const oldest = root.lastElementChild;
        oldest.lastElementChild.remove();
        if (!oldest.firstElementChild) oldest.remove();
        this.shown -= 1;
      }
      measure("vtt:log", start);
    },
    // The chunk an entry numbered `seq` goes in, and the entry it goes before (none: at the chunk's end).
    placeOf(seq) {
      for (let chunk = this.$el.firstElementChild; chunk; chunk = chunk.nextElementSibling) {
        let next = chunk.firstElementChild;
        while (next && Number(next.dataset.seq) > seq) next = next.nextElementSibling;
        if (next || !chunk.nextElementSibling) return [chunk, next];
      }
      return [null, null];
    },
    mark(seqs, undone) {
      const start = performance.now();
      for (const seq of texts(seqs)) {
        const node = this.$el.querySelector(`[data-seq="${Number(seq)}"]`);
        if (node) node.classList.toggle("log-undone", Boolean(undone));
      }
      measure("vtt:log", start);
    },
  },
};
