"""A real sway, headless, for presentd-wayland's tests: its own XDG_RUNTIME_DIR, pixman
rendering, no input devices; as root it runs as nobody (sway refuses root). Screenshots with
grim. Where sway, grim or tesseract cannot run, every test is skipped with one line saying why,
and .build/skipped/test-wayland says so to `make test` (skipped is never passed)."""

from __future__ import annotations

import io
import json
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

from presentd.daemon import wait_until

REPO = Path(__file__).resolve().parents[3]
RENDERER = Path(os.environ.get("PRESENTD_WAYLAND", REPO / "Clients/wayland/build/presentd-wayland"))
NOBODY = 65534


def _unavailable() -> str | None:
    for tool in ("sway", "swaymsg", "grim", "tesseract"):
        if not shutil.which(tool):
            return f"{tool} is not installed (make deps installs it)"
    if os.geteuid() == 0 and not shutil.which("setpriv"):
        return "running as root, and setpriv (to run sway as nobody) is missing"
    if not RENDERER.exists():
        return f"{RENDERER} is not built (make -C Clients/wayland)"
    try:
        from PIL import Image  # noqa: F401
    except ImportError:
        return "python3-pil is not installed"
    return None


_probe: dict[str, str | None] = {}


def _skip_reason() -> str | None:
    """Whether a headless sway starts here at all, tried once per session."""
    if "reason" not in _probe:
        reason = _unavailable()
        if reason is None:
            try:
                with Sway() as _:
                    pass
            except Exception as error:  # noqa: BLE001 - any failure means: cannot run here
                reason = f"a headless sway does not start here: {str(error).splitlines()[0]}"
        _probe["reason"] = reason
        if reason:
            skipped = REPO / ".build/skipped"
            skipped.mkdir(parents=True, exist_ok=True)
            (skipped / "test-wayland").write_text("test-wayland\n")
    return _probe["reason"]


def accepts(path: str) -> bool:
    """Whether a Unix socket at `path` takes a connection now: the file exists before the
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


class Compositor:
    """What a compositor under test has: its log, and a `with` that stops it."""
    log_path: str

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


class Sway(Compositor):
    """sway with HEADLESS-1 (width×height, scale) and nothing else (``extra_config``: more lines of
    its config file); ``create_output`` adds more."""

    def __init__(self, width: int = 1280, height: int = 720, scale: int = 1, extra_config: str = ""):
        self.dir = tempfile.mkdtemp(prefix="presentd-sway-")
        self.runtime = os.path.join(self.dir, "runtime")
        os.mkdir(self.runtime, 0o700)
        config = os.path.join(self.dir, "config")
        with open(config, "w") as f:
            f.write(f"xwayland disable\noutput HEADLESS-1 mode {width}x{height}@60Hz scale {scale}\n{extra_config}")
        os.chmod(self.dir, 0o755)
        os.chmod(config, 0o644)
        command = ["sway", "-c", config]
        if os.geteuid() == 0:
            os.chown(self.runtime, NOBODY, NOBODY)
            command = ["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups"] + command
        # No session bus either: a renderer joins the accessibility bus only where a test gives it one.
        env = {k: v for k, v in os.environ.items()
               if not k.startswith(("WAYLAND_", "SWAYSOCK", "DISPLAY", "DBUS_SESSION_BUS", "AT_SPI_BUS"))}
        env.update(WLR_BACKENDS="headless", WLR_LIBINPUT_NO_DEVICES="1", WLR_RENDERER="pixman",
                   XDG_RUNTIME_DIR=self.runtime, HOME=self.dir)
        self.log_path = os.path.join(self.dir, "sway.log")
        self._log = open(self.log_path, "wb")
        self.process = subprocess.Popen(command, env=env, stdin=subprocess.DEVNULL, stdout=self._log, stderr=self._log)
        try:
            wait_until(self._ready, "sway to accept connections on its Wayland and IPC sockets", timeout=30,
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
        out = subprocess.run(["swaymsg", "-s", self.ipc, "-r", *args], capture_output=True, text=True, timeout=30)
        if out.returncode != 0:
            raise RuntimeError(f"swaymsg {' '.join(args)}: {out.stdout}{out.stderr}")
        return json.loads(out.stdout) if out.stdout.strip() else None

    def outputs(self) -> dict[str, dict]:
        return {o["name"]: o for o in self.msg("-t", "get_outputs")}

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
            subprocess.run(["swaymsg", "-s", self.ipc, "exit"], capture_output=True, timeout=10)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                end(self.process)
        self._log.close()
        shutil.rmtree(self.dir, ignore_errors=True)


class Weston(Compositor):
    """weston's headless backend: one output, width×height at 60 Hz. It offers no layer-shell
    (the renderer runs --kiosk there) but answers presentation feedback, which headless sway
    does not. Raises RuntimeError when it does not start."""

    def __init__(self, width: int = 640, height: int = 480):
        self.dir = tempfile.mkdtemp(prefix="presentd-weston-")
        runtime = os.path.join(self.dir, "runtime")
        os.mkdir(runtime, 0o700)
        env = {k: v for k, v in os.environ.items() if not k.startswith(("WAYLAND_", "DISPLAY"))}
        env.update(XDG_RUNTIME_DIR=runtime, HOME=self.dir)
        self.log_path = os.path.join(self.dir, "weston.log")
        self._log = open(self.log_path, "wb")
        self.process = subprocess.Popen(["weston", "--backend=headless-backend.so", "--socket=wl-test", f"--width={width}",
                                         f"--height={height}", "--idle-time=0"], env=env, stdout=self._log, stderr=self._log)
        self.env = dict(env, WAYLAND_DISPLAY="wl-test")
        try:
            wait_until(lambda: accepts(os.path.join(runtime, "wl-test")) or self.process.poll() is not None,
                       "weston to accept connections on its socket", timeout=30)
            if self.process.poll() is not None:
                raise RuntimeError(f"weston exited with {self.process.returncode}: {self.log[-300:]}")
        except BaseException:
            self.stop()
            raise

    def stop(self) -> None:
        end(self.process)
        self._log.close()
        shutil.rmtree(self.dir, ignore_errors=True)


class Renderer:
    """presentd-wayland on a sway (or a Weston), for a daemon's socket; its stderr kept for messages."""

    def __init__(self, sway: Sway | Weston, socket: str, *args: str, env: dict[str, str] | None = None):
        self.dir = tempfile.mkdtemp(prefix="presentd-wayland-")  # not sway's: it outlives sway
        self.log_path = os.path.join(self.dir, "presentd-wayland.log")
        self._log = open(self.log_path, "wb")
        command = [str(RENDERER), "--socket", socket, "--verbose", *args]
        # PRESENTD_WAYLAND_VALGRIND=1: every renderer under valgrind; a memory error or a leak
        # fails the test that ran it (exit status 99, the report in the failure).
        self.valgrind_log = os.path.join(self.dir, "valgrind.log") if os.environ.get("PRESENTD_WAYLAND_VALGRIND") else None
        if self.valgrind_log:
            command = ["valgrind", "--leak-check=full", "--errors-for-leak-kinds=definite", "--error-exitcode=99",
                       f"--suppressions={Path(__file__).parent / 'valgrind.supp'}", f"--log-file={self.valgrind_log}"] + command
        self.process = subprocess.Popen(command, env=dict(sway.env, **(env or {})), stdin=subprocess.DEVNULL,
                                        stdout=self._log, stderr=self._log)

    @property
    def log(self) -> str:
        if self._log.closed:
            return self._final_log
        with open(self.log_path, "rb") as f:
            return f.read().decode(errors="replace")

    def context(self) -> str:
        state = "running" if self.process.poll() is None else f"exited with {self.process.returncode}"
        return f"presentd-wayland {state}; it wrote:\n{self.log[-2000:]}"

    def stop(self) -> int:
        if self._log.closed:
            return self.process.returncode
        end(self.process)
        self._final_log = self.log
        self._log.close()
        report = open(self.valgrind_log).read() if self.valgrind_log and os.path.exists(self.valgrind_log) else ""
        shutil.rmtree(self.dir, ignore_errors=True)
        if self.process.returncode == 99 and report:
            raise AssertionError(f"valgrind found memory errors or leaks in presentd-wayland:\n{report[-4000:]}")
        return self.process.returncode


@pytest.fixture
def sway_factory():
    reason = _skip_reason()
    if reason:
        pytest.skip(reason)
    started: list[Sway] = []

    def start(**options) -> Sway:
        s = Sway(**options)
        started.append(s)
        return s

    yield start
    for s in started:
        s.stop()


@pytest.fixture
def renderer_factory():
    started: list[Renderer] = []

    def start(sway: Sway, socket: str, *args: str, env: dict[str, str] | None = None) -> Renderer:
        r = Renderer(sway, socket, *args, env=env)
        started.append(r)
        return r

    yield start
    for r in started:
        r.stop()


def pytest_terminal_summary(terminalreporter):
    """The one line that says the suite did not run here, and why."""
    reason = _probe.get("reason")
    if reason:
        terminalreporter.write_line(f"test-wayland: SKIPPED (not passed): {reason}")
