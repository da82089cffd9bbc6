"""Playwright e2e infrastructure: Debian chromium launch args, an app-server subprocess helper, fixtures.

Run with ``.venv/bin/python -m pytest e2e -q -p no:asyncio`` (after ``bash e2e/ensure_chromium.sh``; ``make e2e``
adds ``-n 2 --dist loadgroup --no-loadscope-reorder``: two workers, the longest tests first, see
``e2e/schedule.py``); run one file while working on it, the whole suite takes minutes.

What a test file uses (see each one's docstring):

- ``browser`` (pytest-playwright; Debian's chromium). Open pages with ``open_page(browser, url)``,
  ``open_seat(browser, server, "alice")`` or ``open_as(browser, server, "as=soulweaver")``: each is one user (a
  new browser context) with the screenshot viewport, ready for input. Every context a test opens, with these or
  with ``browser.new_context()``, is closed by the autouse fixture ``close_browser_contexts`` when the test ends
  (a page left open keeps reconnecting to its stopped server and costs a renderer process), so a test needs no
  ``finally`` for its pages; close one earlier with ``page.context.close()``.
- ``new_game(map_file, seed=7)`` (``watchable=True`` as ``--watchable``): a fresh game of the test's own on the
  session's table server (``game_server``, started once with ``--test-games``), with ``url``, ``seat(key)`` and
  ``watch_path``, whose dice roll as those of a server started with ``--map map_file --seed 7``. The usual way to
  get a table: a server start costs seconds, a game a tenth of one.
- ``AppServer(module="vtt.cli", args=["--map", ..., "--database", ..., "--seed", "7"])``: an app on a free
  port, for a test that needs a server of its own (it stops or kills it, or starts it with other settings); a
  table server is always started with ``--seed`` (repeatable dice), ``AppServer`` refuses it without.
  ``with running(server):`` starts it and afterwards stops it, prints its output and fails the test if it logged
  an exception; ``stop_checked(server)`` does the second half.
- ``harness``: the MapView harness (``e2e/map_harness.py``), one server per session and a fresh game per
  test: ``open_page(browser, harness.url("/square"))``.
- ``database_url`` (SQLite, and PostgreSQL where available; see ``e2e/pg_server.py``): a PostgreSQL database a
  test makes is dropped after it.
- Waiting is on conditions, never on time: ``expect(...)``, ``page.wait_for_selector``,
  ``page.wait_for_function``; ``wait_until(page, condition, what)`` for a condition over several pages or over
  what Python recorded. ``screenshot(page, name)`` stops CSS transitions at their end, so no wait for a menu's
  fade-in is needed before it. ``table_timeouts`` gives ``expect`` the table's longer timeout.
- Hex and square geometry (a cell's screen position, drags, token selectors) is in ``e2e/helpers.py``.
- At the end of the session ``no_processes_left`` fails the run if a browser, server or PostgreSQL process the
  tests started is still running (and ends it).
"""

from __future__ import annotations

import base64
import compileall
import contextlib
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import IO, Any, Literal, Protocol, Self
from urllib.parse import urlencode
from urllib.request import Request, urlopen

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, ViewportSize, expect

from e2e import schedule
from e2e.child_processes import no_processes_left
from e2e.pg_server import database_url, postgres, postgres_databases
from e2e.zygote import Zygote, ZygoteProcess

__all__ = ["database_url", "no_processes_left", "postgres", "postgres_databases"]  # fixtures for every e2e file

ROOT = Path(__file__).resolve().parent.parent
E2E = Path(__file__).resolve().parent
SCREENSHOTS = E2E / "screenshots"
HARNESS = E2E / "map_harness.py"
DEMO_MAP = ROOT / "maps" / "demo.json"

CHROMIUM = "/usr/bin/chromium"
"""Debian's chromium, the browser of the table's users: the benchmarks (`bench/`) measure pages in it."""
TEST_CHROMIUM = "/usr/lib/chromium/chromium-headless-shell"
"""Debian's old headless shell (package chromium-headless-shell, as Playwright's own headless chromium): the same
Blink and V8 as `CHROMIUM` without a browser's user interface, so a browser context costs no invisible window, no
address bar and no page of its own for the address bar's popup: a sixth less CPU for the browser tests, which
the browser's processes spend most of."""
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
REDUCED_MOTION: Literal["reduce"] = "reduce"
"""The contexts' motion preference: the app's fades, ripples and pulses end at once (`static/table.css`), so a test's
page draws one frame for a menu or a turn's highlight instead of one every 16 ms while it moves. No test checks a
motion; a screenshot is of a motion's end either way (`screenshot`)."""

SCALE_ENV = "VTT_E2E_TIMEOUT_SCALE"


def timeout_scale() -> float:
    """How many times its time on a quiet machine a wait may take: `VTT_E2E_TIMEOUT_SCALE`, or else the load per
    core when the session starts (1 on a quiet machine, at most 4). A wait on a condition ends as soon as the
    condition holds, so a longer timeout costs a passing test nothing; it keeps a busy machine from failing it."""
    if value := os.environ.get(SCALE_ENV):
        return max(1.0, float(value))
    load = os.getloadavg()[0] / (os.cpu_count() or 1)
    return min(4.0, max(1.0, load))


TIMEOUT_SCALE = timeout_scale()


def scaled(ms: float) -> float:
    """A timeout (ms, or s) for a quiet machine, stretched by `TIMEOUT_SCALE`."""
    return ms * TIMEOUT_SCALE


SCREENSHOTS.mkdir(exist_ok=True)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The browser tests in order of their cost, the longest first, so that the workers end together (see
    ``e2e/schedule.py``)."""
    browser_tests = [item for item in items if item.path.is_relative_to(E2E)]
    if stray := schedule.unmarked_groups(browser_tests, schedule.file_groups(E2E, config.rootpath), config.rootpath):
        pytest.exit(f'write the xdist_group as `pytestmark = pytest.mark.xdist_group("name")`: {stray}', returncode=2)
    others = [item for item in items if not item.path.is_relative_to(E2E)]
    items[:] = schedule.order(browser_tests, schedule.load_costs()) + others


def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> schedule.GroupScheduling | None:
    """``--dist loadgroup`` through `schedule.GroupScheduling`: a marked file's tests on one worker."""
    if config.getvalue("dist") != "loadgroup":
        return None
    return schedule.GroupScheduling(config, log, schedule.file_groups(E2E, config.rootpath))


@pytest.fixture(scope="session", autouse=True)
def app_compiled() -> None:
    """The app's modules compiled to bytecode once for the session: where PYTHONDONTWRITEBYTECODE is set, every
    server a test starts would otherwise compile them all from source again (a fifth of its start-up CPU)."""
    compileall.compile_dir(ROOT / "vtt", quiet=1)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    """pytest-playwright hook: use Debian's headless shell (never a Playwright browser download)."""
    if not Path(TEST_CHROMIUM).exists():
        pytest.exit(f"{TEST_CHROMIUM} is missing: run `bash e2e/ensure_chromium.sh` first", returncode=2)
    return {**browser_type_launch_args, "executable_path": TEST_CHROMIUM, "args": CHROMIUM_ARGS}


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args: dict[str, Any]) -> dict[str, Any]:
    """pytest-playwright hook: the default context (``page`` fixture) uses the screenshot viewport and reduced
    motion too."""
    return {**browser_context_args, "viewport": dict(VIEWPORT), "reduced_motion": REDUCED_MOTION}


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


PORT_TRIES = 3
TCP_LISTEN = "0A"


def listens(pid: int, port: int) -> bool:
    """Whether the process `pid` itself has a socket listening on TCP `port` (a connection to the port could reach
    another program that took it)."""
    inodes: set[str] = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with contextlib.suppress(OSError), open(table) as lines:
            next(lines)
            for line in lines:
                fields = line.split()
                if fields[3] == TCP_LISTEN and int(fields[1].rsplit(":", 1)[1], 16) == port:
                    inodes.add(f"socket:[{fields[9]}]")
    if not inodes:
        return False
    fds = Path(f"/proc/{pid}/fd")
    with contextlib.suppress(OSError):
        for fd in fds.iterdir():
            with contextlib.suppress(OSError):
                if os.readlink(fd) in inodes:
                    return True
    return False


def accepts(port: int) -> bool:
    """Whether something on this machine accepts a TCP connection on `port`: microseconds, where `listens` reads the
    machine's whole socket table (about 10 ms of CPU on a busy machine, every poll of a server's start)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        return s.connect_ex(("127.0.0.1", port)) == 0


class PortTaken(RuntimeError):
    """Another program bound the free port picked for a server before the server did."""


def server_env() -> dict[str, str]:
    """The environment of an app server before its own settings: this one without ``PYTEST_*``/``NICEGUI_*``
    variables (they make NiceGUI think it runs inside its own screen tests), the repository root on
    ``PYTHONPATH``, unbuffered output and ``VTT_CREATORS=anyone``."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_", "NICEGUI_"))}
    env["VTT_CREATORS"] = "anyone"  # the tests make games freely; e2e/test_open_surface.py sets "admin"
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH", "")) if p)
    env["PYTHONUNBUFFERED"] = "1"
    return env


_zygote: list[Zygote] = []
"""The session's server zygote (`server_zygote`), which `AppServer` forks its servers from; none outside the
browser tests (the benchmarks start theirs as plain subprocesses)."""


class AppServer:
    """Runs a Python script (or ``-m`` module) as a subprocess on a free port and waits until it listens.

    The child gets `server_env()` (a clean environment, the repository root on ``PYTHONPATH``,
    ``VTT_CREATORS=anyone``: anyone may make games), then ``env`` (which may say otherwise) and the port in
    ``port_env``. In a browser-test session it is forked from the session's zygote (``e2e/zygote.py``: the same
    server without its seconds of imports), otherwise started by `subprocess.Popen`. Output (stdout and stderr)
    goes to a temporary file, see ``output()``.
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
        startup_timeout: float | None = None,
    ) -> None:
        if (script is None) == (module is None):
            raise ValueError("give exactly one of script or module")
        if module == "vtt.cli" and "--seed" not in args:
            raise ValueError("start the table server with --seed N, so that its dice are the same on every run")
        target = ["-m", module] if module is not None else [str(script)]
        self.command = [sys.executable, *target, *args]
        self.module = module
        self.script = None if script is None else str(script)
        self.args = list(args)
        self.extra_env = dict(env or {})
        self.port_env = port_env
        self.cwd = cwd
        self.startup_timeout = scaled(90.0) if startup_timeout is None else startup_timeout
        self.port = 0
        self.process: subprocess.Popen[bytes] | ZygoteProcess | None = None
        self._log: IO[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def _env(self) -> dict[str, str]:
        env = server_env()
        env.update(self.extra_env)
        env[self.port_env] = str(self.port)
        return env

    def start(self) -> Self:
        """Start the process on a free port and wait until it listens. The port is free when it is picked, but
        another program on the machine may take it before the process binds it: then it starts again on another."""
        for _ in range(PORT_TRIES - 1):
            try:
                return self._start()
            except PortTaken:
                pass
        return self._start()

    def _start(self) -> Self:
        self.port = free_port()
        self._log = tempfile.TemporaryFile()  # noqa: SIM115 (kept open for output() after stop())
        env = self._env()
        if _zygote and _zygote[0].accepts(env):
            self.process = _zygote[0].fork(self.module, self.script, self.args, env, self.cwd, self._log)
        else:
            self.process = subprocess.Popen(
                self.command, cwd=self.cwd, env=env, stdout=self._log, stderr=subprocess.STDOUT
            )
        deadline = time.monotonic() + self.startup_timeout
        while True:
            code = self.process.poll()
            if code is not None:
                if "address already in use" in self.output().lower():
                    raise PortTaken(f"port {self.port} was taken before {' '.join(self.command)} bound it")
                raise RuntimeError(
                    f"{' '.join(self.command)} exited with code {code} before listening on port {self.port}.\n"
                    f"--- output ---\n{self.output()}"
                )
            if accepts(self.port) and listens(self.process.pid, self.port):
                return self
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


@pytest.fixture(scope="session", autouse=True)
def server_zygote(no_processes_left: None, app_compiled: None) -> Iterator[Zygote]:
    """The session's server zygote (``e2e/zygote.py``), which imports the servers' modules while the session
    starts; `AppServer` forks from it. Ended after the session's servers; if one is still running, it is left
    with them to `no_processes_left`, which reports them."""
    zygote = Zygote(server_env(), ROOT, ready_timeout=scaled(120.0))
    _zygote.append(zygote)
    try:
        yield zygote
    finally:
        _zygote.remove(zygote)
        zygote.close(timeout=scaled(10.0))


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


@pytest.fixture(autouse=True)
def close_browser_contexts(request: pytest.FixtureRequest) -> Iterator[None]:
    """Closes every browser context the test left open (its pages with it), once the test is over."""
    if "browser" not in request.fixturenames:
        yield
        return
    browser: Browser = request.getfixturevalue("browser")
    yield
    for context in list(browser.contexts):
        context.close()


@pytest.fixture(scope="session")
def harness_server() -> Iterator[AppServer]:
    """One ``e2e/map_harness.py`` server for the session (the tests of a file may run on either worker); a test
    opens its pages through ``harness``, on a game of its own."""
    with running(AppServer(HARNESS)) as server:
        yield server


@dataclass(frozen=True)
class Harness:
    """The harness server and the name of one test's game on it."""

    server: AppServer
    game: str

    def url(self, path: str = "/", **query: str) -> str:
        """A harness page (``/``, ``/big``, ``/square``, ``/crowd``) showing this test's game."""
        return f"{self.server.url}{path}?{urlencode({**query, 'game': self.game})}"


@pytest.fixture
def harness(harness_server: AppServer) -> Iterator[Harness]:
    """A fresh game on the module's harness server; the test fails if the server logged an exception during it."""
    before = harness_server.output().count("Traceback")
    yield Harness(harness_server, uuid.uuid4().hex)
    output = harness_server.output()
    if output.count("Traceback") > before:
        print(output)
        pytest.fail("the harness server logged an exception during the test")


class Served(Protocol):
    """Where a test's game is served: a server of its own (`AppServer`) or a game on the session's (`TableGame`)."""

    @property
    def url(self) -> str: ...

    def seat(self, key: str) -> str: ...


@pytest.fixture(scope="session")
def game_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[AppServer]:
    """One table server for the whole session, started with ``--test-games``: each test that needs no server of its
    own makes a fresh game on it with ``new_game`` (a server start costs seconds; a game, a tenth of one)."""
    database = tmp_path_factory.mktemp("games") / "games.sqlite"
    args = ["--database", f"sqlite:///{database}", "--seed", "1", "--test-games"]
    with running(AppServer(module="vtt.cli", args=args)) as server:
        yield server


@dataclass(frozen=True)
class TableGame:
    """One test's game on the session's table server, with what a test uses of an ``AppServer``: ``url``,
    ``seat(key)``, ``seat_path(query)``; ``watch_path`` is its spectators' page. ``with new_game(...) as server:``
    reads like ``with running(AppServer(...)) as server:`` (nothing is stopped after it)."""

    server: AppServer
    game: int
    seats: Mapping[str, str]

    @property
    def url(self) -> str:
        return self.server.url

    @property
    def watch_path(self) -> str:
        return f"/watch/{self.game}"

    def seat(self, key: str) -> str:
        """The path of a seat's secret link (`soulweaver`, or a player's key)."""
        try:
            return self.seats[key]
        except KeyError:
            raise LookupError(f"game {self.game} has no seat {key!r}, only {sorted(self.seats)}") from None

    def seat_path(self, query: str) -> str:
        return self.seat(seat_key(query))

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        return None


class NewGame(Protocol):
    def __call__(self, map_file: Path = DEMO_MAP, *, seed: int, watchable: bool = False) -> TableGame: ...


@pytest.fixture
def new_game(game_server: AppServer, request: pytest.FixtureRequest) -> Iterator[NewGame]:
    """Makes the test's games on the session's table server: ``new_game(map_file, seed=N)`` is a fresh game from
    the map file whose dice roll as a server started with ``--map map_file --seed N`` would roll them (and
    ``watchable=True`` as with ``--watchable``). The test fails if the server logged an exception during it."""
    if game_server.process is None or game_server.process.poll() is not None:
        pytest.fail(f"the session's table server has stopped:\n{game_server.output()}")
    before = game_server.output().count("Traceback")
    made = 0

    def make(map_file: Path = DEMO_MAP, *, seed: int, watchable: bool = False) -> TableGame:
        nonlocal made
        made += 1
        name = f"{request.node.name[:60]} {made} {uuid.uuid4().hex[:8]}"
        body = {"name": name, "map": json.loads(map_file.read_text()), "seed": seed, "watchable": watchable}
        ask = Request(
            game_server.url + "/test-games",
            data=json.dumps(body).encode(),
            headers={"Content-Type": "application/json"},
        )
        with urlopen(ask, timeout=LOAD_TIMEOUT / 1000) as answer:
            got = json.loads(answer.read())
        return TableGame(game_server, int(got["game"]), dict(got["seats"]))

    yield make
    output = game_server.output()
    if output.count("Traceback") > before:
        print(output)
        pytest.fail("the table server logged an exception during the test")


TABLE_TIMEOUT = scaled(15_000)
LOAD_TIMEOUT = scaled(30_000)
"""Milliseconds: for an action on a table page, and for a page (re)load on a loaded CI machine."""


def pytest_report_header() -> str:
    return f"e2e timeouts: x{TIMEOUT_SCALE:.1f} (set {SCALE_ENV} to choose)"


@pytest.fixture(autouse=True)
def expect_timeout() -> None:
    """`expect` waits `TABLE_TIMEOUT` in every test (a test or module fixture may set its own after this)."""
    expect.set_options(timeout=TABLE_TIMEOUT)


@pytest.fixture
def table_timeouts() -> Iterator[None]:
    """`expect` waits `TABLE_TIMEOUT` in the tests that use this fixture."""
    expect.set_options(timeout=TABLE_TIMEOUT)
    yield
    expect.set_options(timeout=None)


def user_context(browser: Browser, viewport: ViewportSize = VIEWPORT, **options: Any) -> BrowserContext:
    """A new browser context for one user, with reduced motion: the screenshot viewport unless told otherwise
    (Playwright's other context options pass through)."""
    return browser.new_context(viewport=viewport, reduced_motion=REDUCED_MOTION, **options)


def open_page(
    browser: Browser,
    url: str,
    ready: str | None = None,
    *,
    timeout: float = TABLE_TIMEOUT,
    load_timeout: float = LOAD_TIMEOUT,
) -> Page:
    """One user (a new browser context, the screenshot viewport, reduced motion) at `url`, once NiceGUI's handshake
    is done and `ready` (a selector) shows. `timeout`: the page's default for actions, in ms; `load_timeout`: for the
    load."""
    page = user_context(browser).new_page()
    page.set_default_timeout(timeout)
    page.goto(url, timeout=load_timeout)
    wait_ready(page, timeout=load_timeout)
    if ready is not None:
        page.wait_for_selector(ready)
    return page


def open_seat(browser: Browser, server: Served, key: str, ready: str | None = "[data-token-id]") -> Page:
    """One user at a seat's secret link, as the server printed it (`soulweaver`, or a player's name)."""
    return open_page(browser, server.url + server.seat(key), ready)


def seat_key(query: str) -> str:
    """The seat an old-style query names: `as=soulweaver`, or `as=player&name=alice`."""
    params = dict(p.split("=", 1) for p in query.split("&"))
    return "soulweaver" if params.get("as") == "soulweaver" else params["name"]


def open_as(browser: Browser, server: Served, query: str, ready: str | None = None) -> Page:
    """`open_seat` for the seat an old-style query names (by default as soon as the page is ready for input)."""
    return open_seat(browser, server, seat_key(query), ready)


def wait_ready(page: Page, timeout: float = TABLE_TIMEOUT) -> None:
    """Wait until NiceGUI's websocket handshake is done, so events reach the server."""
    page.wait_for_function("window.did_handshake === true", timeout=timeout)


def wait_until(page: Page, condition: Callable[[], bool], what: str, timeout: float = TABLE_TIMEOUT) -> None:
    """Wait until `condition()` holds: for a condition over several pages, or over what Python recorded (a
    condition in one page is `expect` or `page.wait_for_function`). It is checked every 100 ms while `page`
    delivers Playwright's events (websocket frames, console messages); after `timeout` ms the test fails with
    `what`."""
    deadline = time.monotonic() + timeout / 1000
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(f"waited {timeout / 1000:.0f} s for {what}")
        page.wait_for_timeout(100)


# What Playwright's `page.screenshot(animations="disabled")` does first: every finite animation or transition run to
# its end (and any that starts meanwhile), every endless one stopped until `window.__vttAfterShot()`, text carets
# hidden; then the fonts are loaded and two frames drawn.
BEFORE_SHOT = """async () => {
  const undo = [];
  const endless = new Set();
  const settle = () => {
    for (const animation of document.getAnimations()) {
      if (!animation.effect || animation.playbackRate === 0 || endless.has(animation)) continue;
      if (Number.isFinite(animation.effect.getComputedTiming().endTime)) animation.finish();
      else { animation.cancel(); endless.add(animation); }
    }
  };
  settle();
  for (const event of ['transitionrun', 'animationstart']) {
    document.addEventListener(event, settle);
    undo.push(() => document.removeEventListener(event, settle));
  }
  undo.push(() => endless.forEach((animation) => animation.play()));
  for (const element of document.querySelectorAll('input,textarea,[contenteditable]')) {
    const style = element.style;
    const [value, priority] = [style.getPropertyValue('caret-color'), style.getPropertyPriority('caret-color')];
    style.setProperty('caret-color', 'transparent', 'important');
    undo.push(() => style.setProperty('caret-color', value, priority));
  }
  window.__vttAfterShot = () => { undo.forEach((step) => step()); delete window.__vttAfterShot; };
  await document.fonts.ready;
  await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
}"""


def screenshot(page: Page, name: str) -> Path:
    """A screenshot in `e2e/screenshots/`; CSS transitions and animations are first run to their end (a menu's
    fade-in, a notification's slide), so none has to be waited for. As `page.screenshot(animations="disabled")`,
    but the PNG is compressed for speed (through CDP's ``optimizeForSpeed``): a bigger file, a quarter of the
    browser's CPU (0.1 s instead of 0.4 s a 1600x1000 screenshot)."""
    path = SCREENSHOTS / f"{name}.png"
    page.evaluate(BEFORE_SHOT)
    cdp = page.context.new_cdp_session(page)
    try:
        shot = cdp.send("Page.captureScreenshot", {"format": "png", "optimizeForSpeed": True})
    finally:
        cdp.detach()
        page.evaluate("() => window.__vttAfterShot?.()")
    path.write_bytes(base64.b64decode(shot["data"]))
    return path
