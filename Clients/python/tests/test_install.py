"""`pip install Clients/python` works and gives an importable package (with the viewer's
files), using only what is installed (no index, no build isolation)."""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

CLIENTS = Path(__file__).resolve().parents[2]


def test_pip_install_gives_an_importable_package(tmp_path):
    for needed in ("pip", "setuptools", "wheel"):
        if importlib.util.find_spec(needed) is None:  # found, not imported: setuptools patches distutils
            pytest.skip(f"{needed} is not installed")
    # Build from a copy so the checkout gets no build/ or egg-info litter.
    shutil.copytree(CLIENTS / "python", tmp_path / "Clients/python", symlinks=True,
                    ignore=shutil.ignore_patterns("__pycache__", "*.egg-info", "build", ".pytest_cache"))
    if (CLIENTS / "web").exists():
        shutil.copytree(CLIENTS / "web", tmp_path / "Clients/web")
    target = tmp_path / "site"
    pip = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-index", "--no-build-isolation",
                          "--target", str(target), str(tmp_path / "Clients/python")],
                         capture_output=True, text=True)
    assert pip.returncode == 0, pip.stderr
    check = ("import presentd, presentd.aio, presentd.record, presentd.web; print(presentd.__file__); "
             "print((presentd.web.default_root() / 'index.html').is_file())")
    out = subprocess.run([sys.executable, "-c", check], capture_output=True, text=True,
                         env={**os.environ, "PYTHONPATH": str(target)}, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    where, has_viewer = out.stdout.split()
    assert where.startswith(str(target)) and has_viewer == "True"  # the page is packaged too
