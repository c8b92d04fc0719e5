"""Fixtures for every Python-driven suite (Clients/*/tests, Tests/terminal): the real presentd on
a temporary socket. Each suite's conftest.py star-imports this module.

The binaries come from $PRESENTD / $PRESENTCTL (the Makefile sets them), else from the
Swift build directory of this checkout (`swift build --show-bin-path`)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from presentd.daemon import Daemon

REPO = Path(__file__).resolve().parents[2]


def _bin_dir() -> Path | None:
    swift = shutil.which("swift") or "/opt/swift/usr/bin/swift"
    if not os.path.exists(swift):
        return None
    out = subprocess.run([swift, "build", "--show-bin-path"], cwd=REPO, capture_output=True, text=True)
    return Path(out.stdout.strip()) if out.returncode == 0 else None


def pytest_configure(config: pytest.Config) -> None:
    missing = [n for n in ("PRESENTD", "PRESENTCTL") if not os.environ.get(n)]
    if missing:
        directory = _bin_dir()
        for name in missing:
            if directory and (directory / name.lower()).exists():
                os.environ[name] = str(directory / name.lower())


def _patient(tmp_path: Path) -> list[str]:
    """A configuration giving an owner 30 s, not the default 1 s, to answer shouldDismiss
    before the daemon allows on its own: the tests answer, and on a loaded machine that can
    take longer than a second (none of them tests the time-out)."""
    config = tmp_path / "presentd-test.json"
    config.write_text(json.dumps({"shouldDismissTimeout": 30}))
    return ["--config", str(config)]


@pytest.fixture
def daemon(tmp_path):
    """presentd on the real (monotonic) clock."""
    with Daemon(args=_patient(tmp_path)) as d:
        yield d


@pytest.fixture
def manual(tmp_path):
    """presentd on the manual clock at 10 fps: time moves only by `advance`."""
    with Daemon(clock="manual", fps=10, args=_patient(tmp_path)) as d:
        yield d
