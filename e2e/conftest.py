"""Playwright e2e infrastructure: Debian chromium launch args, an app-server subprocess helper, fixtures.

Run with ``.venv/bin/python -m pytest e2e -q -p no:asyncio`` (after ``bash e2e/ensure_chromium.sh``).
"""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from types import TracebackType
from typing import IO, Any, Self

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

ROOT = Path(__file__).resolve().parent.parent
E2E = Path(__file__).resolve().parent
SCREENSHOTS = E2E / "screenshots"
HARNESS = E2E / "map_harness.py"

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
VIEWPORT: ViewportSize = {"width": 1600, "height": 1000}

SCREENSHOTS.mkdir(exist_ok=True)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    """pytest-playwright hook: use Debian's chromium (never a Playwright browser download)."""
    if not Path(CHROMIUM).exists():
        pytest.exit(f"{CHROMIUM} is missing: run `bash e2e/ensure_chromium.sh` first", returncode=2)
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": CHROMIUM_ARGS}


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args: dict[str, Any]) -> dict[str, Any]:
    """pytest-playwright hook: the default context (``page`` fixture) uses the screenshot viewport too."""
    return {**browser_context_args, "viewport": dict(VIEWPORT)}


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class AppServer:
    """Runs a Python script (or ``-m`` module) as a subprocess on a free port and waits until it listens.

    The child gets a clean environment (no ``PYTEST_*``/``NICEGUI_*`` variables, which make NiceGUI think
    it runs inside its own screen tests), the repository root on ``PYTHONPATH``, the port in ``port_env`` and
    ``VTT_CREATORS=anyone`` (anyone may make games; ``env`` may say otherwise). Output (stdout and stderr) goes
    to a temporary file, see ``output()``.
    """

    def __init__(
        self,
        script: str | Path | None = None,
        *,
        module: str | None = None,
        args: Sequence[str] = (),
        env: Mapping[str, str] | None = None,
        port_env: str = "VTT_PORT",
        cwd: Path = ROOT,
        startup_timeout: float = 90.0,
    ) -> None:
        if (script is None) == (module is None):
            raise ValueError("give exactly one of script or module")
        target = ["-m", module] if module is not None else [str(script)]
        self.command = [sys.executable, *target, *args]
        self.extra_env = dict(env or {})
        self.port_env = port_env
        self.cwd = cwd
        self.startup_timeout = startup_timeout
        self.port = 0
        self.process: subprocess.Popen[bytes] | None = None
        self._log: IO[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def _env(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_", "NICEGUI_"))}
        env["VTT_CREATORS"] = "anyone"  # the tests make games freely; e2e/test_open_surface.py sets "admin"
        env.update(self.extra_env)
        env[self.port_env] = str(self.port)
        env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH", "")) if p)
        env["PYTHONUNBUFFERED"] = "1"
        return env

    def start(self) -> Self:
        self.port = free_port()
        self._log = tempfile.TemporaryFile()  # noqa: SIM115 (kept open for output() after stop())
        self.process = subprocess.Popen(
            self.command, cwd=self.cwd, env=self._env(), stdout=self._log, stderr=subprocess.STDOUT
        )
        deadline = time.monotonic() + self.startup_timeout
        while True:
            code = self.process.poll()
            if code is not None:
                raise RuntimeError(
                    f"{' '.join(self.command)} exited with code {code} before listening on port {self.port}.\n"
                    f"--- output ---\n{self.output()}"
                )
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                    return self
            except OSError:
                pass
            if time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(
                    f"{' '.join(self.command)} did not listen on port {self.port} within "
                    f"{self.startup_timeout:.0f} s.\n--- output ---\n{self.output()}"
                )
            time.sleep(0.05)

    def seat(self, key: str) -> str:
        """The path of a seat's secret link, as the table server printed it at start (`seat <key>: <url>`)."""
        for line in self.output().splitlines():
            head, _, url = line.strip().partition(": ")
            if head == f"seat {key}":
                return "/" + url.split("/", 3)[3]
        raise LookupError(f"the server printed no seat {key!r}:\n{self.output()}")

    def seat_path(self, query: str) -> str:
        """The seat link for an old-style query (`as=soulweaver` or `as=player&name=alice`)."""
        return self.seat(seat_key(query))

    def output(self) -> str:
        if self._log is None:
            return ""
        self._log.flush()
        self._log.seek(0)
        return self._log.read().decode(errors="replace")

    def stop(self, timeout: float = 10.0) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=timeout)

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()


@contextlib.contextmanager
def running(server: AppServer) -> Iterator[AppServer]:
    """Start `server`; afterwards stop it, print its output (pytest shows it when a test fails) and fail the test
    if it logged an exception."""
    server.start()
    try:
        yield server
    finally:
        stop_checked(server)


def stop_checked(server: AppServer) -> None:
    """Stop `server`, print its output (pytest shows it when a test fails) and fail the test if it logged an
    exception."""
    server.stop()
    output = server.output()
    print(output)
    if "Traceback" in output:
        pytest.fail(f"the server logged an exception:\n{output}")


@pytest.fixture
def harness_server() -> Iterator[AppServer]:
    """A fresh ``e2e/map_harness.py`` per test (its game state is module-level)."""
    with running(AppServer(HARNESS)) as server:
        yield server


TABLE_TIMEOUT = 15_000
LOAD_TIMEOUT = 30_000
"""Milliseconds: for an action on a table page, and for a page (re)load on a loaded CI machine."""


@pytest.fixture
def table_timeouts() -> Iterator[None]:
    """`expect` waits `TABLE_TIMEOUT` in the tests that use this fixture."""
    expect.set_options(timeout=TABLE_TIMEOUT)
    yield
    expect.set_options(timeout=None)


def open_seat(browser: Browser, server: AppServer, key: str, ready: str | None = "[data-token-id]") -> Page:
    """One user (a new browser context) at a seat's secret link, as the server printed it, once `ready` shows."""
    page = browser.new_context(viewport=VIEWPORT).new_page()
    page.set_default_timeout(TABLE_TIMEOUT)
    page.goto(server.url + server.seat(key), timeout=LOAD_TIMEOUT)
    wait_ready(page, timeout=LOAD_TIMEOUT)
    if ready is not None:
        page.wait_for_selector(ready)
    return page


def seat_key(query: str) -> str:
    """The seat an old-style query names: `as=soulweaver`, or `as=player&name=alice`."""
    params = dict(p.split("=", 1) for p in query.split("&"))
    return "soulweaver" if params.get("as") == "soulweaver" else params["name"]


def open_as(browser: Browser, server: AppServer, query: str) -> Page:
    """`open_seat` for the seat an old-style query names, as soon as the page is ready for input."""
    return open_seat(browser, server, seat_key(query), None)


def wait_ready(page: Page, timeout: float = 15_000) -> None:
    """Wait until NiceGUI's websocket handshake is done, so events reach the server."""
    page.wait_for_function("window.did_handshake === true", timeout=timeout)


def open_page(browser: Browser, url: str) -> Page:
    """A new browser context (= one user) with the screenshot viewport, opened at ``url`` and ready."""
    context = browser.new_context(viewport=VIEWPORT)
    page = context.new_page()
    page.goto(url)
    wait_ready(page)
    return page


def screenshot(page: Page, name: str) -> Path:
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=path)
    return path
