"""nginx in front of several app servers, for the scale-out tests: the project's own `deploy/nginx-vtt.conf`.

The deployment file is used as it is, with two changes for a test: its `server 127.0.0.1:PORT ...;` lines of
each upstream are replaced by the test's app servers, and its `listen 80;` by a free port on 127.0.0.1. nginx runs in
the foreground from a temporary folder (its own `nginx.conf` includes the site), and each answer names the process
that served it (`X-VTT-Upstream`), so that a test can pin a browser to a process by its `vtt_route` cookie. Tests
are skipped where nginx is not installed (`.ci/run` installs Debian's package).
"""

from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
import time
from pathlib import Path
from types import TracebackType
from typing import Self

import httpx

from e2e.conftest import free_port

SITE = Path(__file__).resolve().parents[1] / "deploy" / "nginx-vtt.conf"
ROUTE_COOKIE = "vtt_route"
UPSTREAM_HEADER = "X-VTT-Upstream"


def nginx_binary() -> str | None:
    for candidate in (shutil.which("nginx"), "/usr/sbin/nginx"):
        if candidate and Path(candidate).exists():
            return candidate
    return None


def site_for(ports: list[int], listen: int) -> str:
    """The deployment's site with the test's upstream processes and listening port."""
    text = SITE.read_text()
    servers = "".join(f"    server 127.0.0.1:{p} max_fails=1 fail_timeout=10s;\n" for p in ports)
    text, n = re.subn(r"(?:^[ \t]*server 127\.0\.0\.1:\d+[^\n]*\n)+", servers, text, flags=re.MULTILINE)
    if n < 1:
        raise ValueError(f"{SITE} has no block of `server 127.0.0.1:PORT` lines to replace")
    text, n = re.subn(r"^([ \t]*)listen 80;", rf"\1listen 127.0.0.1:{listen};", text, flags=re.MULTILINE)
    if n != 1:
        raise ValueError(f"{SITE} has no `listen 80;` line to replace")
    header = f"        add_header {UPSTREAM_HEADER} $upstream_addr always;\n"
    return re.sub(r"^(    location [^\n]*\{\n)", rf"\1{header}", text, flags=re.MULTILINE)


class NginxProxy:
    """`with NginxProxy([port_a, port_b]) as proxy:` — nginx on `proxy.url`, stopped afterwards."""

    def __init__(self, ports: list[int]) -> None:
        self.ports = ports
        self.port = 0
        self.folder = Path(tempfile.mkdtemp(prefix="vtt-nginx-"))
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> Self:
        binary = nginx_binary()
        if binary is None:
            raise RuntimeError("nginx is not installed")
        self.port = free_port()
        (self.folder / "logs").mkdir()
        (self.folder / "site.conf").write_text(site_for(self.ports, self.port))
        (self.folder / "nginx.conf").write_text(
            "worker_processes 1;\n"
            f"pid {self.folder / 'nginx.pid'};\n"
            f"error_log {self.folder / 'logs' / 'error.log'} warn;\n"
            "events { worker_connections 256; }\n"
            "http {\n"
            f"    access_log {self.folder / 'logs' / 'access.log'};\n"
            f"    client_body_temp_path {self.folder / 'body'};\n"
            f"    proxy_temp_path {self.folder / 'proxy'};\n"
            f"    include {self.folder / 'site.conf'};\n"
            "}\n"
        )
        self.process = subprocess.Popen(
            [binary, "-p", str(self.folder), "-c", str(self.folder / "nginx.conf"), "-g", "daemon off;"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        deadline = time.monotonic() + 15
        while True:
            if self.process.poll() is not None:
                err = self.process.stderr.read().decode() if self.process.stderr else ""
                raise RuntimeError(f"nginx exited at start: {err}")
            try:
                httpx.get(self.url, timeout=1)
                return self
            except httpx.HTTPError:
                if time.monotonic() > deadline:
                    self.stop()
                    raise RuntimeError("nginx did not answer within 15 s") from None
                time.sleep(0.05)

    def route_to(self, port: int) -> str:
        """A `vtt_route` cookie value that nginx sends to the app server on `port`."""
        for i in range(200):
            value = f"route-{i}"
            answer = httpx.get(self.url + "/favicon.ico", cookies={ROUTE_COOKIE: value}, timeout=10)
            if answer.headers.get(UPSTREAM_HEADER, "").endswith(f":{port}"):
                return value
        raise LookupError(f"no route cookie of 200 tried reaches port {port}")

    def error_log(self) -> str:
        path = self.folder / "logs" / "error.log"
        return path.read_text() if path.exists() else ""

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)
        shutil.rmtree(self.folder, ignore_errors=True)

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()
