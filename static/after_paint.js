// A part of the table page drawn only after the page's first frame (vtt/web/after_paint.py): the side panels, so
// that a big map's first frame is not kept waiting by the panels' components. Its children are rendered from a task
// queued by that frame, or as soon as the page's socket connects if that comes first (the server's first messages
// may call the panels' elements), or after FALLBACK_MS (a hidden tab draws no frames).
const FALLBACK_MS = 500;

export default {
  template: `<div><slot v-if="shown"></slot></div>`,
  data() {
    return { shown: false };
  },
  mounted() {
    const show = () => {
      this.shown = true;
    };
    requestAnimationFrame(() => setTimeout(show, 0));
    this.fallback = setTimeout(show, FALLBACK_MS);
    // NiceGUI makes the socket when the whole page is mounted, after this component
    queueMicrotask(() => window.socket?.on("connect", show));
  },
  unmounted() {
    clearTimeout(this.fallback);
  },
};
