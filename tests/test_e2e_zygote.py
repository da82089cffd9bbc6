"""The browser tests' server zygote (`e2e/zygote.py`): a forked server runs as the interpreter would have started it
(arguments, environment, working folder, output, exit code), and nothing the zygote imports ahead reads a setting
that differs between servers."""

from __future__ import annotations

import signal
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from e2e.conftest import ROOT, server_env
from e2e.zygote import PER_SERVER, Zygote

SHOW_ITSELF = """
import os, sys, time
print(__name__, sys.argv[1:], os.getcwd(), os.environ["VTT_PORT"], "PYTEST_CURRENT_TEST" in os.environ, flush=True)
print("to stderr", file=sys.stderr, flush=True)
if sys.argv[1] == "wait":
    time.sleep(60)
sys.exit(int(sys.argv[1]) if sys.argv[1].isdigit() else 0)
"""


@pytest.fixture(scope="module")
def zygote() -> Iterator[Zygote]:
    started = Zygote(server_env(), ROOT, ready_timeout=120.0)
    try:
        started.wait_ready()
        yield started
    finally:
        assert started.close(), "a forked server was still running"


def _fork(zygote: Zygote, script: Path, arg: str, cwd: Path) -> tuple[int, str]:
    with tempfile.TemporaryFile() as output:
        env = {**server_env(), "VTT_PORT": "4321"}
        process = zygote.fork(None, str(script), [arg], env, cwd, output)
        if arg == "wait":
            with pytest.raises(subprocess.TimeoutExpired):
                process.wait(timeout=0.2)
            assert process.poll() is None
            process.terminate()
        code = process.wait(timeout=30)
        output.seek(0)
        return code, output.read().decode()


def test_a_forked_script_gets_its_arguments_environment_folder_and_output_and_says_its_exit_code(
    zygote: Zygote, tmp_path: Path
) -> None:
    script = tmp_path / "show.py"
    script.write_text(SHOW_ITSELF)
    code, output = _fork(zygote, script, "3", tmp_path)
    assert code == 3
    assert output == f"__main__ ['3'] {tmp_path} 4321 False\nto stderr\n"


def test_a_terminated_fork_ends_by_its_signal(zygote: Zygote, tmp_path: Path) -> None:
    script = tmp_path / "show.py"
    script.write_text(SHOW_ITSELF)
    code, output = _fork(zygote, script, "wait", ROOT)
    assert code == -signal.SIGTERM
    assert output.startswith(f"__main__ ['wait'] {ROOT} 4321")


def test_a_server_forks_only_when_its_environment_differs_in_per_server_settings(zygote: Zygote) -> None:
    assert zygote.accepts({**server_env(), "VTT_PORT": "1", "VTT_MAPS": "/x", "VTT_CREATORS": "admin"})
    assert not zygote.accepts({**server_env(), "VTT_LATENCY_TRACE": "/tmp/trace"})
    assert not zygote.accepts({k: v for k, v in server_env().items() if k != "PYTHONUNBUFFERED"})


def test_no_module_imported_ahead_reads_a_per_server_setting(zygote: Zygote) -> None:
    assert "vtt.web.app" in zygote.preloaded
    assert "vtt.web.start" not in zygote.preloaded  # reads VTT_MAPS when imported
    for name in zygote.preloaded:
        if name.split(".")[0] != "vtt":
            continue
        folder = ROOT / name.replace(".", "/")
        for path in (folder.with_suffix(".py"), folder / "__init__.py"):  # neither for a namespace package
            if path.exists():
                assert not [setting for setting in PER_SERVER if setting in path.read_text()], name
