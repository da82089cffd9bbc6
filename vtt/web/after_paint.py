"""A part of a page its browser draws just after the page's first frame (`static/after_paint.js`)."""

from __future__ import annotations

from nicegui import ui


class AfterPaint(ui.element, component="../../static/after_paint.js"):
    """A `div` whose children the browser renders once the page has drawn its first frame, or once its socket
    connects if that comes first: what the first frame does not need (a table page's side panels) does not delay
    it. The children are built and sent with the page as any element's."""
