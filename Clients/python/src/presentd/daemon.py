"""Starting a private presentd: for tests, the recorder (which needs a manual clock of its
own) and the web viewer's demo mode. The daemon runs on a socket in a fresh temporary
directory and is stopped (SIGTERM, then SIGKILL) when the context ends. ``wait_until`` is
the one deadline loop the test suites under Clients/ use to wait for a condition."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from typing import Any, Callable, Sequence, TypeVar

T = TypeVar("T")


def wait_until(condition: Callable[[], T], what: str, *, timeout: float = 30.0,
               context: Callable[[], str] | None = None, retry_on: tuple[type[BaseException], ...] = (AssertionError,),
               interval: float = 0.01) -> T:
    """Calls ``condition`` until it returns something true, and returns that. The deadline
    is generous because a loaded machine (one compiling while it tests) can be slow by
    seconds; on success it costs nothing. ``condition`` raising one of ``retry_on`` means
    "not yet" (the last such error is reported); anything else propagates at once. After
    ``timeout`` seconds: TimeoutError saying ``what`` was awaited, with ``context()``
    (whether the process is alive, what it wrote…)."""
    deadline = time.monotonic() + timeout
    last: BaseException | None = None
    while True:
        try:
            value = condition()
            if value:
                return value
        except retry_on as error:
            last = error
        if time.monotonic() >= deadline:
            break
        time.sleep(interval)
    message = f"waited {timeout:g} s for {what}"
    if last is not None:
        message += f"\nlast check: {last}"
    if context is not None:
        message += f"\n{context()}"
    raise TimeoutError(message)


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
                 ready_timeout: float = 60.0):
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
        self._start(ready_timeout)

    def _start(self, ready_timeout: float) -> None:
        self.process = subprocess.Popen(self.command, stdin=subprocess.DEVNULL, stdout=self._log, stderr=self._log)
        try:
            self._wait_until_serving(ready_timeout)
        except BaseException:
            self.stop()
            raise

    def restart(self, sig: int = signal.SIGKILL, ready_timeout: float = 60.0) -> None:
        """Kills the daemon (``kill -9`` by default) and starts it again on the same socket;
        it restores the stack it saved beside the socket. Its output goes on in the same log."""
        if self.process.poll() is None:
            self.process.send_signal(sig)
            self.process.wait(30)
        self._start(ready_timeout)

    def _wait_until_serving(self, timeout: float) -> None:
        """Ready means a ``ping`` is answered, as a client would see it: the socket file exists
        from bind(), a moment before listen(), and a connect succeeds from listen() on, before
        the loop runs. The probe is the daemon's first client, every time: a connection that
        closed before it spoke would leave no trace, or take the first client number, as the
        race between its close and the accept went."""
        def serves() -> bool:
            if self.process.poll() is not None:
                raise RuntimeError(f"presentd exited with {self.process.returncode} before it served on "
                                   f"{self.path}; its output:\n{self.log}")
            with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
                try:
                    s.connect(self.path)
                    s.settimeout(1.0)
                    s.sendall(b'{"jsonrpc":"2.0","id":0,"method":"ping"}\n')
                    reply = b""
                    while not reply.endswith(b"\n"):
                        chunk = s.recv(4096)
                        if not chunk:
                            return False
                        reply += chunk
                    return b'"result"' in reply
                except OSError:
                    return False

        wait_until(serves, f"presentd to answer a ping on {self.path}", timeout=timeout,
                   context=lambda: f"presentd is still running (pid {self.process.pid}); its output:\n{self.log}")

    @property
    def log(self) -> str:
        """What the daemon wrote to stdout and stderr so far."""
        with open(self.log_path, "rb") as f:
            return f.read().decode(errors="replace")

    def stop(self, sig: int = signal.SIGTERM, timeout: float = 30.0) -> int:
        """Stops the daemon; returns its exit status (negative: killed by that signal).
        SIGKILL only after ``timeout`` s: a loaded machine can take seconds to shut down."""
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
