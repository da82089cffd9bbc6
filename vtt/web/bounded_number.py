"""A number field for a count the dialog itself refuses when out of range (Tiers, minutes, dice of damage).

NiceGUI's `ui.number` with `min`/`max` clamps the value on blur, so a typed 7 in a 1–6 field became 6 before the
button's click arrived, and was sent. This field has no min/max; it shows the range under itself while what is typed
is outside it, and `whole_in` is what the dialog's button checks before sending anything.
"""

from __future__ import annotations

from nicegui import ui


def whole_in(value: object, low: int, high: int) -> int | None:
    """`value` as a whole number when it is one from `low` to `high`, else None."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not float(value).is_integer():
        return None
    n = int(value)
    return n if low <= n <= high else None


def bounded_number(label: str, value: int, low: int, high: int) -> ui.number:
    """A whole-number field starting at `value`, saying "From `low` to `high`" under itself while it holds anything
    else (short, to fit one line under a narrow field)."""
    hint = f"From {low} to {high}"
    return ui.number(
        label,
        value=value,
        step=1,
        precision=0,
        validation=lambda v: None if whole_in(v, low, high) is not None else hint,
    ).props("no-error-icon")
