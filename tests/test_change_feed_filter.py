"""What a process's listening thread hands to its event loop (`ChangeFeed`): every process hears every command
stored, its own and those of games it does not hold; those are dropped in the thread, without waking the loop."""

from __future__ import annotations

import asyncio

from vtt.store.change_feed import ChangeFeed, Heard, parse


def _feed(origin: str, held: set[int]) -> ChangeFeed:
    loop = asyncio.new_event_loop()
    loop.close()  # never run: only the filter is used
    return ChangeFeed("postgresql://unused", loop, lambda _: None, lambda: None, origin, held.__contains__)


def _passes(feed: ChangeFeed, payload: str) -> bool:
    found = parse(payload)
    assert found is not None, payload
    return feed._wanted(found)


def test_what_this_process_said_itself_is_dropped() -> None:
    feed = _feed("me", {7})
    assert not _passes(feed, "log 7 12 me")
    assert not _passes(feed, "seats 7 me")
    assert _passes(feed, "log 7 12 other")


def test_commands_and_pointers_of_games_not_held_are_dropped() -> None:
    feed = _feed("me", {7})
    assert not _passes(feed, "log 8 3 other")
    assert not _passes(feed, 'pointer 8 {"kind":"ping"}')
    assert _passes(feed, 'pointer 7 {"kind":"ping"}')


def test_seats_of_any_game_are_handed_over() -> None:
    """What is kept of a game's seats (its players' names) is dropped when they change, loaded or not."""
    assert _passes(_feed("me", set()), "seats 8 other")


def test_a_game_loaded_later_is_heard_from_then_on() -> None:
    held: set[int] = set()
    feed = _feed("me", held)
    assert not _passes(feed, "log 9 1 other")
    held.add(9)
    assert _passes(feed, "log 9 2 other")


def test_without_an_origin_or_a_holder_everything_is_handed_over() -> None:
    loop = asyncio.new_event_loop()
    loop.close()
    feed = ChangeFeed("postgresql://unused", loop, lambda _: None, lambda: None)
    assert feed._wanted(Heard("log", 3, 1, origin="anyone"))


def test_what_is_dropped_and_handed_over_is_counted() -> None:
    """`bench/scale.py` shows these counts: the work a process does for games served by another."""
    feed = _feed("me", {7})
    for payload in ("log 7 1 me", "log 7 2 other", "log 8 1 other", "seats 8 other", 'pointer 8 {"kind":"ping"}'):
        _passes(feed, payload)
    assert feed.counts == {"own": 1, "not held": 2, "handed": 2, "handed log": 1, "handed seats": 1}
