"""Data attributes set from values, never through a props string.

NiceGUI parses `.props("...")` text into props, and Vue runs a prop whose name starts with `:` as JavaScript: a
creature id `x :data-p="code"` put into such a string would run `code` in every browser showing it. Here each value
is stored under its fixed name as it is; the browser gets it as JSON and shows it as an attribute's text.
"""

from __future__ import annotations

import re
from typing import TypeVar

from nicegui.element import Element

E = TypeVar("E", bound=Element)

_NAME = re.compile(r"[a-z][a-z0-9_]*")


def with_data(element: E, **values: object) -> E:
    """`element` with a `data-<name>` attribute for each keyword (`error_for=...` is `data-error-for`), each value
    as its text."""
    for name, value in values.items():
        if not _NAME.fullmatch(name):
            raise ValueError(f"not a data attribute name: {name!r}")
        element.props["data-" + name.replace("_", "-")] = str(value)
    return element
