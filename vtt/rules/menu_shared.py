"""Options that read nothing but the creature they are offered to and a table setting (End turn, a Defensive Stance,
Drop Focus, Stop holding): made and filled in once, and handed as they are to every menu of that creature that
offers them.

A creature's menu is worked out again after every change (`engine.legal_actions`), and each such option comes out the
same in every one of them: made, filled in (`offers.finish`) and freed again for each menu, it costs about as much as
an option with a target. It is kept by what it reads (`finished`); like every option of a kept menu, it is not to be
changed (a seat's view copies those it changes). `offers.kept_menu` hands on an option filled in already as it is.
"""

from __future__ import annotations

import typing
from collections.abc import Hashable
from typing import Literal

if typing.TYPE_CHECKING:
    from vtt.rules.offers import ActionOption, Group

Paid = Literal["none", "major", "minor"]

KEPT_MAX = 4096
"""Options kept (a few for each creature of a few tables); all are dropped when full."""

_kept: dict[tuple[Hashable, ...], ActionOption] = {}


def finished(creature_id: str, action: str, group: Group, label: str, paid: Paid = "none") -> ActionOption:
    """The option `action` offered to `creature_id`, paid as `paid` says, filled in: made once for those values."""
    key = (creature_id, action, group, label, paid)
    found = _kept.get(key)
    if found is None:
        # imported here: offers is made from positions, which forgets these
        from vtt.rules.offers import PAID, finish, make_option

        found = finish(make_option(action=action, group=group, label=label, cost=PAID[paid]), creature_id)
        if len(_kept) >= KEPT_MAX:
            _kept.clear()
        _kept[key] = found
    return found


def forget() -> None:
    """Forget every option kept (`positions.forget`)."""
    _kept.clear()
