// Keys of the token menu and its dialogs (vtt/web/menu_keys.py): the number keys pick the menu's rows (or, once a
// kind's list of weapons is open, its entries), Enter confirms the open dialog. Escape is the map's and Quasar's
// (it cancels). A hidden element: it only listens.
const typing = (el) =>
  !!el && (el.tagName === "INPUT" || el.tagName === "TEXTAREA" || el.tagName === "SELECT" || el.isContentEditable);

function confirmDialog(e) {
  const dialogs = document.querySelectorAll(".q-dialog");
  const last = dialogs[dialogs.length - 1];
  const go = last ? last.querySelector("[data-go]") : null;
  if (!go) return;
  e.preventDefault();
  e.stopPropagation();
  // the focused box or button would take the key as its own click on its release
  if (document.activeElement && document.activeElement.blur) document.activeElement.blur();
  go.click();
}

function pickRow(e) {
  const menu = document.querySelector(".q-menu.token-menu");
  if (!menu) return;
  const open = menu.querySelector(".menu-kind.q-expansion-item--expanded");
  const entry = open
    ? open.querySelector(`.menu-variant[data-key="${e.key}"]`)
    : menu.querySelector(`[data-key="${e.key}"]:not(.menu-variant)`);
  if (!entry) return;
  e.preventDefault();
  e.stopPropagation();
  const row = entry.classList.contains("menu-kind")
    ? entry.querySelector(".q-expansion-item__container > .q-item")
    : entry;
  if (row) row.click();
}

export default {
  template: `<span class="menu-keys" style="display: none"></span>`,
  mounted() {
    this.onKey = (e) => {
      if (e.ctrlKey || e.metaKey || e.altKey || e.repeat || typing(e.target)) return;
      if (e.key === "Enter") confirmDialog(e);
      else if (/^[0-9]$/.test(e.key)) pickRow(e);
    };
    document.addEventListener("keydown", this.onKey, true);
  },
  unmounted() {
    document.removeEventListener("keydown", this.onKey, true);
  },
};
