"""Which of uvicorn's websocket implementations serves the pages' and the API's websockets.

NiceGUI names `wsproto` to uvicorn (`ui.run` takes no other), a pure-Python protocol. uvicorn's `websockets-sansio`
protocol does the same work for less: framing a 570-byte change message took 9.7 µs with wsproto against 5.2 µs
(permessage-deflate on; 5.0 against 1.3 µs off), and it compresses with a 4 KB window instead of 32 KB a socket.
A command of the seat API's load sends 7 messages (`bench/scale.py`). The name NiceGUI asks for is pointed at it
here, before the server starts; `VTT_WEBSOCKETS=wsproto` keeps NiceGUI's choice.
"""

from __future__ import annotations

import os

from uvicorn import config

WS_SETTING = "VTT_WEBSOCKETS"
CHOICES = ("websockets-sansio", "wsproto")


def choose_websockets() -> str:
    """Point the protocol NiceGUI asks for at the one `$VTT_WEBSOCKETS` names (default `websockets-sansio`);
    returns it. An unknown name is refused at start, with the names there are."""
    wanted = os.environ.get(WS_SETTING, "").strip() or CHOICES[0]
    if wanted not in CHOICES:
        raise SystemExit(f"{WS_SETTING} must be one of {', '.join(CHOICES)}, not {wanted!r}")
    implementation = config.WS_PROTOCOLS.get(wanted)
    if implementation is None:  # an older uvicorn without it: NiceGUI's own choice stays
        return "wsproto"
    config.WS_PROTOCOLS["wsproto"] = implementation
    return wanted
