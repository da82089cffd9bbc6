"""Whether a handler takes the event as its argument, worked out once per function instead of once per element.

NiceGUI asks it (`nicegui.helpers.expects_arguments`, an `inspect.signature`) of the change handler of every
element's props, classes and style as the element is made: on the Soulweaver's page of the 500-token table, a fifth
of the server's time building the page before its HTML goes out (py-spy). The answer depends on the function's
signature alone, so it is kept by function: a bound method's by the function it binds (binding drops the first
parameter, alike for every object it is bound to), a plain function's by the function itself, each kept weakly (gone
with the function, never mistaken for another). Anything else (a partial, a callable object, a builtin) is asked
each time, as before.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from types import FunctionType, MethodType
from typing import Any

from nicegui import helpers


class Kept:
    """`ask` (NiceGUI's `expects_arguments`) answered once per function."""

    def __init__(self, ask: Callable[[Callable[..., Any]], bool]) -> None:
        self.ask = ask
        self.bound: weakref.WeakKeyDictionary[FunctionType, bool] = weakref.WeakKeyDictionary()
        """By the function a bound method binds: whether the bound method expects an argument."""
        self.plain: weakref.WeakKeyDictionary[FunctionType, bool] = weakref.WeakKeyDictionary()
        """By a function called as it is: whether it expects an argument."""

    def __call__(self, func: Callable[..., Any]) -> bool:
        if isinstance(func, MethodType) and type(func.__func__) is FunctionType:
            known, key = self.bound, func.__func__
        elif type(func) is FunctionType:
            known, key = self.plain, func
        else:
            return self.ask(func)
        answer = known.get(key)
        if answer is None:
            answer = known[key] = self.ask(func)
        return answer


def install() -> None:
    """NiceGUI's modules call `helpers.expects_arguments`: it answers once per function from now on."""
    if not isinstance(helpers.expects_arguments, Kept):
        helpers.expects_arguments = Kept(helpers.expects_arguments)
