"""Whether a handler takes the event, kept per function (`vtt/web/handler_arity.py`): the same answers as NiceGUI's
own `expects_arguments`, for bound methods, functions and anything else."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import pytest
from nicegui import helpers
from nicegui.helpers.functions import expects_arguments as asked

from vtt.web import handler_arity


class Handlers:
    def takes(self, event: object) -> None: ...

    def takes_none(self) -> None: ...

    def optional(self, event: object = None) -> None: ...

    def __call__(self, event: object) -> None: ...


def plain_takes(event: object) -> None: ...


def plain_none() -> None: ...


class Counting:
    """NiceGUI's answer, each question noted."""

    def __init__(self) -> None:
        self.calls: list[object] = []

    def __call__(self, func: Callable[..., Any]) -> bool:
        self.calls.append(func)
        return asked(func)


@pytest.fixture
def counting() -> Counting:
    return Counting()


@pytest.fixture
def kept(counting: Counting) -> handler_arity.Kept:
    return handler_arity.Kept(counting)


def test_answers_as_nicegui(kept: handler_arity.Kept) -> None:
    a, b = Handlers(), Handlers()
    cases: list[Callable[..., Any]] = [
        a.takes,
        a.takes_none,
        a.optional,
        a,
        plain_takes,
        plain_none,
        lambda e: None,
        lambda: None,
        functools.partial(plain_takes, 1),
        print,
        b.takes,
        b.takes_none,
    ]
    for func in cases * 2:
        assert kept(func) is asked(func), func


def test_bound_and_plain_of_one_function_differ(kept: handler_arity.Kept) -> None:
    """`Handlers.takes_none` called bound takes no event; the function itself takes one (`self`)."""
    assert kept(Handlers().takes_none) is False
    assert kept(Handlers.takes_none) is True
    assert kept(Handlers().takes_none) is False


def test_asked_once_per_function(kept: handler_arity.Kept, counting: Counting) -> None:
    for _ in range(3):
        kept(Handlers().takes)
        kept(Handlers().takes_none)
        kept(plain_takes)
    assert [getattr(f, "__func__", f) for f in counting.calls] == [Handlers.takes, Handlers.takes_none, plain_takes]


def test_others_asked_each_time(kept: handler_arity.Kept, counting: Counting) -> None:
    partial = functools.partial(plain_takes, 1)
    kept(partial)
    kept(partial)
    assert counting.calls == [partial, partial]


def test_a_function_gone_is_forgotten() -> None:
    def make() -> Callable[..., Any]:
        return lambda event: None

    kept = handler_arity.Kept(asked)
    func = make()
    assert kept(func) is True
    assert len(kept.plain) == 1
    del func
    assert len(kept.plain) == 0


def test_install_once(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(helpers, "expects_arguments", asked)
    handler_arity.install()
    installed = helpers.expects_arguments
    assert isinstance(installed, handler_arity.Kept)
    assert installed.ask is asked
    handler_arity.install()
    assert helpers.expects_arguments is installed
    assert installed(Handlers().takes) is True
