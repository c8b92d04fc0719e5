"""Fixtures for every Python-driven suite under Clients/: the real presentd on a temporary socket.

The binaries come from $PRESENTD / $PRESENTCTL (the Makefile sets them), else from the
Swift build directory of this checkout (`swift build --show-bin-path`)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from presentd.daemon import Daemon

REPO = Path(__file__).resolve().parents[1]


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


@pytest.fixture
def daemon():
    """presentd on the real (monotonic) clock."""
    with Daemon() as d:
        yield d


@pytest.fixture
def manual():
    """presentd on the manual clock at 10 fps: time moves only by `advance`."""
    with Daemon(clock="manual", fps=10) as d:
        yield d
