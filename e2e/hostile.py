"""The hostile-string corpus, and the checks that a browser page showing it ran none of it.

Each string tries one way of turning text into code or breaking the page: a props-string injection (`:data-p=...`
is a Vue binding NiceGUI would evaluate), HTML (`<img onerror>`, `<script>`), a Vue template (`{{ ... }}`), and
text no page should choke on (a lone surrogate, a right-to-left override, 10,000 characters, NUL). Every script
they carry sets `window.__pwned`; a page passes while it stays undefined and no dialog opened.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from playwright.sync_api import BrowserContext, Dialog, Page, Response

PWN = "window.__pwned=1"

HOSTILE: dict[str, str] = {
    "vue-prop": f'evil :data-p="{PWN}"',
    "html-img": f'<img src=x onerror="{PWN}">',
    "vue-template": f"{{{{constructor.constructor('{PWN}')()}}}}",
    "html-script": f'"><script>{PWN}</script>',
    "lone-surrogate": "bad \ud800 half",
    "rtl-override": "abc\u202edcba.exe",
    "long": "L" + "o" * 9_998 + "g",
    "nul": "nul\x00here",
}
"""Label → string. The surrogate cannot be sent as UTF-8: send it as a JSON escape (`json.dumps` does)."""

NAME_SAFE = ("vue-prop", "html-img", "vue-template", "html-script", "rtl-override")
"""Strings every rule of the table allows as a display name (under 80 characters, no control character): they
must be shown as typed wherever a name is asked for. The others may be refused."""

TYPED = ("vue-prop", "vue-template", "long")
"""Strings typed into real form fields (the rest go in by files and the seat API: a browser sends no lone
surrogate, and no NUL from a keyboard)."""

FILE_NAMES = (f"evil :data-p={PWN}", f"<img src=x onerror={PWN}>", f"{{{{constructor.constructor('{PWN}')()}}}}")
"""Hostile file names: a browser sends a file name's quotes as `%22`, and '/' cannot be in one."""

_TECHNICAL = re.compile(
    r"Traceback|pydantic|validation error|input_value|\[type=|errors\.pydantic\.dev|Exception|"
    r"object has no attribute|NoneType|KeyError|TypeError|\(s\)"
)


def plain_problem(message: str) -> str | None:
    """Why `message` is not a refusal a person can read, or None: it must say something, in words, without a
    validator's or a stack trace's wording."""
    text = message.strip()
    if len(text) < 8 or not re.search(r"[A-Za-z]{3,}", text):
        return f"says nothing a person can act on: {text[:200]!r}"
    found = _TECHNICAL.search(text)
    if found:
        return f"shows technical text ({found.group(0)!r}): {text[:300]!r}"
    return None


# Every piece of text in the page: text nodes, attribute values and form fields' values (what a person sees or what
# the page keeps as data), with shadow-free DOM walking.
HAYSTACK = """() => {
  const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
  for (let n = walker.currentNode; n; n = walker.nextNode()) {
    if (n.nodeType === Node.TEXT_NODE) { out.push(n.data); continue; }
    for (const a of n.attributes) out.push(a.value);
    if ('value' in n && typeof n.value === 'string' && n.value) out.push(n.value);
  }
  return out.join('\\u0001');
}"""

# What the strings above would leave behind had the page taken them for markup or a binding. (NiceGUI's own
# <script> carries the page's elements as JSON, names included: a script made from a string holds just its code.)
INJECTED = """() => ({
  pwned: typeof window.__pwned !== 'undefined',
  dataP: document.querySelectorAll('[data-p]').length,
  img: document.querySelectorAll('img[src="x"]').length,
  script: [...document.scripts].filter((s) => s.textContent.trim() === 'window.__pwned=1').length,
})"""


@dataclass
class Watch:
    """One browser context's pages, watched: every response with a status of 500 or more, every dialog (dismissed),
    and the pages checked for injected script."""

    context: BrowserContext
    failures: list[str] = field(default_factory=list)
    dialogs: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.context.on("response", self._response)
        self.context.on("page", self._page)
        for page in self.context.pages:
            self._page(page)

    def _page(self, page: Page) -> None:
        page.on("dialog", self._dialog)

    def _response(self, response: Response) -> None:
        if response.status >= 500:
            self.failures.append(f"{response.status} from {response.url}")

    def _dialog(self, dialog: Dialog) -> None:
        self.dialogs.append(f"{dialog.type}: {dialog.message}")
        dialog.dismiss()

    def check(self, page: Page, where: str) -> None:
        """Nothing ran, nothing injected, no dialog, no 5xx answer, so far, on `page` (`where` names it)."""
        found = page.evaluate(INJECTED)
        assert not found["pwned"], f"{where}: a hostile string ran as script (window.__pwned is set)"
        assert found["dataP"] == 0, f"{where}: a hostile string became a prop (an element has data-p)"
        assert found["img"] == 0, f"{where}: a hostile string became an <img> element"
        assert found["script"] == 0, f"{where}: a hostile string became a <script> element"
        assert not self.dialogs, f"{where}: a dialog opened: {self.dialogs}"
        assert not self.failures, f"{where}: the server answered {self.failures}"


def haystack(page: Page) -> str:
    text: str = page.evaluate(HAYSTACK)
    return text


def shown(page: Page, text: str) -> bool:
    """Whether `text` is in the page exactly as typed: as text, an attribute's value or a field's value."""
    return text in haystack(page)
