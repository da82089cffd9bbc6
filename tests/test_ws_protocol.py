"""The websocket protocol the server runs (`vtt.web.ws_protocol`): websockets' sans-I/O protocol under the name
NiceGUI asks uvicorn for, unless `VTT_WEBSOCKETS` says otherwise."""

from __future__ import annotations

import pytest
from uvicorn import config

from vtt.web.ws_protocol import WS_SETTING, choose_websockets

WSPROTO = "uvicorn.protocols.websockets.wsproto_impl:WSProtocol"
SANSIO = "uvicorn.protocols.websockets.websockets_sansio_impl:WebSocketsSansIOProtocol"


@pytest.fixture(autouse=True)
def protocols(monkeypatch: pytest.MonkeyPatch) -> None:
    """uvicorn's table of protocols as it ships, put back after each test."""
    monkeypatch.setitem(config.WS_PROTOCOLS, "wsproto", WSPROTO)


def test_by_default_the_name_nicegui_asks_for_runs_websockets_sans_io(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(WS_SETTING, raising=False)
    assert choose_websockets() == "websockets-sansio"
    assert config.WS_PROTOCOLS["wsproto"] == SANSIO


def test_the_setting_can_keep_wsproto(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(WS_SETTING, "wsproto")
    assert choose_websockets() == "wsproto"
    assert config.WS_PROTOCOLS["wsproto"] == WSPROTO


def test_an_unknown_protocol_is_refused_with_the_names_there_are(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(WS_SETTING, "carrier-pigeon")
    with pytest.raises(SystemExit, match="websockets-sansio, wsproto"):
        choose_websockets()
    assert config.WS_PROTOCOLS["wsproto"] == WSPROTO
