// Several elements' method calls of one page, sent by the server as one message (vtt/web/one_message.py): the
// browser runs them in one task, in the order given, and draws what they change in one frame. Each call is
// [element id, method name, arguments], data made by the server; NiceGUI's runMethod does each.
export default {
  template: `<span class="one-message" style="display: none"></span>`,
  methods: {
    run(calls) {
      for (const call of Array.isArray(calls) ? calls : []) {
        if (!Array.isArray(call) || call.length !== 3) continue;
        runMethod(Number(call[0]), String(call[1]), Array.isArray(call[2]) ? call[2] : []);
      }
    },
  },
};
