"""Headless compositors for tests and benches that need a real Wayland screen: sway (wlroots'
headless backend, pixman rendering, no input devices, no Xwayland) and weston's headless
backend. Each runs in a fresh temporary directory with its own XDG_RUNTIME_DIR, and counts as
started only once its sockets take a connection (the file exists before the compositor
listens). The Wayland suite, presentd's bench and the notification bench all start their sway
here, so the recipe lives in one place."""

from __future__ import annotations

import io
import json
import os
import shutil
import signal
import socket
import subprocess
import tempfile
from typing import Callable

from presentd.daemon import wait_until

NOBODY = 65534   # sway refuses to run as root: as root it runs as nobody

# What a client of the compositor would otherwise inherit from the caller's own session.
_SESSION_VARIABLES = ("WAYLAND_", "SWAYSOCK", "DISPLAY", "DBUS_SESSION_BUS", "AT_SPI_BUS")


def accepts(path: str) -> bool:
    """Whether a Unix socket at ``path`` takes a connection now: the file exists before the
    server listens, so only a connect that succeeds says it serves."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
        try:
            s.connect(path)
            return True
        except OSError:
            return False


def end(process: subprocess.Popen) -> None:
    """SIGTERM, and SIGKILL when 15 s were not enough."""
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def _private_environment(runtime: str, home: str) -> dict[str, str]:
    """The caller's environment without its session (no display, no bus: a test gives a
    client one where it wants one), with ``runtime`` as XDG_RUNTIME_DIR."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(_SESSION_VARIABLES)}
    env.update(XDG_RUNTIME_DIR=runtime, HOME=home)
    return env


class Compositor:
    """What a compositor under test has: its process, its log, the environment its clients
    need (``env``), and a ``with`` that stops it."""
    process: subprocess.Popen
    log_path: str
    env: dict[str, str]

    @property
    def pid(self) -> int:
        return self.process.pid

    @property
    def log(self) -> str:
        with open(self.log_path, "rb") as f:
            return f.read().decode(errors="replace")

    def stop(self) -> None:
        raise NotImplementedError

    def __enter__(self):
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


class HeadlessSway(Compositor):
    """sway with HEADLESS-1 (width×height at 60 Hz, scale) and nothing else (``extra_config``:
    more lines of its config file; ``create_output`` adds outputs). ``preexec_fn`` runs in the
    child before sway (a bench pins it to a CPU). ``pid`` is sway's own: setpriv execs it.
    Raises RuntimeError (with sway's log) when it exits during start-up, TimeoutError when it
    does not serve within ``timeout`` seconds.

    ``nested_in``: a sway of this kind to run in, on wlroots' Wayland backend, instead of the
    headless one. Its outputs (WL-1, and more with ``create_output``) are windows of that sway,
    sized by its layout (width, height and scale do not apply), and closing one's window
    (``unplug``) takes the output away, global and all: the headless backend of wlroots 0.15
    (sway 1.7) can neither disable an output nor destroy one."""

    def __init__(self, width: int = 1280, height: int = 720, scale: int = 1, extra_config: str = "",
                 preexec_fn: Callable[[], None] | None = None, timeout: float = 30,
                 nested_in: HeadlessSway | None = None):
        self.dir = tempfile.mkdtemp(prefix="presentd-sway-")
        self.runtime = os.path.join(self.dir, "runtime")
        os.mkdir(self.runtime, 0o700)
        config = os.path.join(self.dir, "config")
        with open(config, "w") as f:
            first = "" if nested_in else f"output HEADLESS-1 mode {width}x{height}@60Hz scale {scale}\n"
            f.write(f"xwayland disable\n{first}{extra_config}")
        os.chmod(self.dir, 0o755)
        os.chmod(config, 0o644)
        command = ["sway", "-c", config]
        if os.geteuid() == 0:
            os.chown(self.runtime, NOBODY, NOBODY)
            command = ["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups"] + command
        env = _private_environment(self.runtime, self.dir)
        env.update(WLR_BACKENDS="headless", WLR_LIBINPUT_NO_DEVICES="1", WLR_RENDERER="pixman")
        if nested_in:
            env.update(WLR_BACKENDS="wayland", WAYLAND_DISPLAY=os.path.join(nested_in.runtime, nested_in.display))
        self.parent = nested_in
        self.log_path = os.path.join(self.dir, "sway.log")
        self._log = open(self.log_path, "wb")
        self.process = subprocess.Popen(command, env=env, stdin=subprocess.DEVNULL, stdout=self._log, stderr=self._log,
                                        preexec_fn=preexec_fn)
        try:
            wait_until(self._ready, "sway to accept connections on its Wayland and IPC sockets", timeout=timeout,
                       context=self.context)
        except BaseException:
            self.stop()
            raise
        self.env = dict(env, WAYLAND_DISPLAY=self.display, SWAYSOCK=self.ipc)

    def _ready(self) -> bool:
        if self.process.poll() is not None:
            raise RuntimeError(f"sway exited with {self.process.returncode}: {self.log[-2000:]}")
        names = os.listdir(self.runtime)
        ipc = [n for n in names if n.startswith("sway-ipc.")]
        display = [n for n in names if n.startswith("wayland-") and not n.endswith(".lock")]
        if not ipc or not display:
            return False
        self.ipc, self.display = os.path.join(self.runtime, ipc[0]), display[0]
        return accepts(self.ipc) and accepts(os.path.join(self.runtime, self.display))

    def context(self) -> str:
        return f"sway {'running' if self.process.poll() is None else 'exited'}; its log ends:\n{self.log[-1500:]}"

    def msg(self, *args: str) -> object:
        """``swaymsg -r ARGS`` against this sway: its JSON answer."""
        out = subprocess.run(["swaymsg", "-s", self.ipc, "-r", *args], capture_output=True, text=True, timeout=30)
        if out.returncode != 0:
            raise RuntimeError(f"swaymsg {' '.join(args)}: {out.stdout}{out.stderr}")
        return json.loads(out.stdout) if out.stdout.strip() else None

    def outputs(self) -> dict[str, dict]:
        return {o["name"]: o for o in self.msg("-t", "get_outputs")}

    def unplug(self, output: str) -> None:
        """A nested sway's output taken away: its window in the outer sway closed."""
        self.parent.msg(f'[title="^wlroots - {output}$"]', "kill")

    def screenshot(self, output: str = "HEADLESS-1"):
        """The output's pixels now, as a PIL image (RGB)."""
        from PIL import Image
        png = subprocess.run(["grim", "-o", output, "-"], env=self.env, capture_output=True, timeout=30)
        if png.returncode != 0:
            raise AssertionError(f"grim -o {output}: {png.stderr.decode(errors='replace')}")
        return Image.open(io.BytesIO(png.stdout)).convert("RGB")

    def stop(self) -> None:
        if self.process.poll() is None:
            # swaymsg exit is sway's own way out; a SIGTERM that comes early in its start-up
            # can go unanswered for long.
            if getattr(self, "ipc", None):
                subprocess.run(["swaymsg", "-s", self.ipc, "exit"], capture_output=True, timeout=10)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                end(self.process)
        self._log.close()
        shutil.rmtree(self.dir, ignore_errors=True)


class HeadlessWeston(Compositor):
    """weston's headless backend: one output, width×height at 60 Hz. It offers no layer-shell
    (presentd-wayland runs --kiosk there) but answers presentation feedback, which headless
    sway does not. Raises RuntimeError when it does not start."""

    def __init__(self, width: int = 640, height: int = 480, timeout: float = 30):
        self.dir = tempfile.mkdtemp(prefix="presentd-weston-")
        runtime = os.path.join(self.dir, "runtime")
        os.mkdir(runtime, 0o700)
        env = _private_environment(runtime, self.dir)
        self.log_path = os.path.join(self.dir, "weston.log")
        self._log = open(self.log_path, "wb")
        self.process = subprocess.Popen(["weston", "--backend=headless-backend.so", "--socket=wl-test", f"--width={width}",
                                         f"--height={height}", "--idle-time=0"], env=env, stdout=self._log, stderr=self._log)
        self.env = dict(env, WAYLAND_DISPLAY="wl-test")
        try:
            wait_until(lambda: accepts(os.path.join(runtime, "wl-test")) or self.process.poll() is not None,
                       "weston to accept connections on its socket", timeout=timeout)
            if self.process.poll() is not None:
                raise RuntimeError(f"weston exited with {self.process.returncode}: {self.log[-300:]}")
        except BaseException:
            self.stop()
            raise

    def stop(self) -> None:
        end(self.process)
        self._log.close()
        shutil.rmtree(self.dir, ignore_errors=True)
