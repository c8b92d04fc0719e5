"""Starting a private presentd: for tests, the recorder (which needs a manual clock of its
own) and the web viewer's demo mode. The daemon runs on a socket in a fresh temporary
directory and is stopped (SIGTERM, then SIGKILL) when the context ends."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from typing import Any, Sequence


def find_binary(name: str = "presentd") -> str:
    """``$PRESENTD`` (or ``$PRESENTCTL`` for presentctl), else ``name`` on PATH."""
    explicit = os.environ.get(name.upper())
    if explicit:
        return explicit
    found = shutil.which(name)
    if found:
        return found
    raise FileNotFoundError(
        f"no {name} binary: set ${name.upper()} or put it on PATH (swift build --show-bin-path shows where it is)")


class Daemon:
    """A presentd child process. ``Daemon(clock="manual", fps=30)`` → ``with`` it, then
    connect clients to ``daemon.path``."""

    def __init__(self, binary: str | None = None, *, clock: str = "monotonic", fps: int | None = None,
                 container: tuple[float, float] | None = None, args: Sequence[str] = (),
                 ready_timeout: float = 10.0):
        self.binary = binary or find_binary()
        self.directory = tempfile.mkdtemp(prefix="presentd-")
        self.path = os.path.join(self.directory, "presentd.sock")
        self.log_path = os.path.join(self.directory, "presentd.log")
        command = [self.binary, "--socket", self.path, "--clock", clock]
        if fps is not None:
            command += ["--fps", str(fps)]
        if container is not None:
            command += ["--container", f"{container[0]:g}x{container[1]:g}"]
        command += list(args)
        self.command = command
        self._log = open(self.log_path, "wb")
        self.process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=self._log, stderr=self._log)
        try:
            self._wait_until_listening(ready_timeout)
        except BaseException:
            self.stop()
            raise

    def _wait_until_listening(self, timeout: float) -> None:
        """Ready means a connection is accepted, as a client would see it."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"presentd exited with {self.process.returncode}: {self.log}")
            with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
                try:
                    s.connect(self.path)
                    return
                except OSError:
                    time.sleep(0.01)
        raise TimeoutError(f"presentd did not listen on {self.path} within {timeout} s: {self.log}")

    @property
    def log(self) -> str:
        """What the daemon wrote to stdout and stderr so far."""
        with open(self.log_path, "rb") as f:
            return f.read().decode(errors="replace")

    def stop(self, sig: int = signal.SIGTERM, timeout: float = 5.0) -> int:
        """Stops the daemon; returns its exit status (negative: killed by that signal)."""
        if self.process.poll() is None:
            self.process.send_signal(sig)
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self._log.close()
        shutil.rmtree(self.directory, ignore_errors=True)
        return self.process.returncode

    def __enter__(self) -> "Daemon":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.stop()
