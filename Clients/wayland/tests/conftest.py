"""presentd-wayland's tests on a real sway, headless (Tests/kit/headless.py starts it: its own
XDG_RUNTIME_DIR, pixman rendering, no input devices; as root it runs as nobody, since sway
refuses root). Screenshots with grim. Where sway, grim or tesseract cannot run, every test is skipped with one line saying why,
and .build/skipped/test-wayland says so to `make test` (skipped is never passed)."""

from __future__ import annotations

import math
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from presentd.daemon import wait_until

from headless import HeadlessSway as Sway, HeadlessWeston as Weston, accepts, end  # noqa: F401 (the tests import them from here)

REPO = Path(__file__).resolve().parents[3]
RENDERER = Path(os.environ.get("PRESENTD_WAYLAND", REPO / "Clients/wayland/build/presentd-wayland"))

# The theme's default card colour (src/theme.c).
CARD = (250, 250, 250)


def pixel(v: float, scale: float) -> int:
    """Where the renderer puts a coordinate in points on the pixel grid: C's round(), halves up
    (src/paint.c), where Python's round() takes halves to even."""
    return math.floor(v * scale + 0.5)


def misdrawn(shot, frame: dict, scale: float) -> str | None:
    """Why a card is not drawn at `frame` (points) in `shot`, or None when it is: the column
    and the row through its middle are the card's colour just inside its four edges and not
    just outside them (where those are on the screen). The colour is the card's within 24 a
    channel: the shadow of a card above falls on a card's top."""
    x, y = pixel(frame["x"] + frame["width"] / 2, scale), pixel(frame["y"] + frame["height"] / 2, scale)
    left, right = pixel(frame["x"], scale), pixel(frame["x"] + frame["width"], scale)
    top, bottom = pixel(frame["y"], scale), pixel(frame["y"] + frame["height"], scale)
    probes = [((x, top + 1), True), ((x, bottom - 2), True), ((x, top - 2), False), ((x, bottom + 1), False),
              ((left + 2, y), True), ((right - 3, y), True), ((left - 3, y), False), ((right + 2, y), False)]
    for (px, py), inside in probes:
        if 0 <= py < shot.height and 0 <= px < shot.width:
            colour = shot.getpixel((px, py))
            if all(abs(a - b) <= 24 for a, b in zip(colour, CARD)) != inside:
                return f"{colour} at {(px, py)}, {'inside' if inside else 'outside'} its edge"
    return None


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


def drawn_at_rest(client, sway, scale: float, frames, what: str, context, timeout: float = 60):
    """Shoots until the picture holds still (two shots a tenth of a second apart agree) with
    every card at its frame (`frames()`: id → frame, read again each time, as a late measure
    changes it); (frames, shot). While the picture is still but a card is not at its frame,
    the manual clock moves on a second: a measure that came after the entry rested glides it
    to its size (0.3 s, defaults.containerChange), and on the manual clock that waits."""
    previous = []

    def settled():
        now, shot = frames(), sway.screenshot()
        misplaced = {id: why for id, f in now.items() if (why := misdrawn(shot, f, scale))}
        still = bool(previous) and previous[0] == shot.tobytes()
        previous[:] = [shot.tobytes()]
        if still and not misplaced:
            return now, shot
        if still:
            client.call("advance", {"seconds": 1})
        raise AssertionError(f"not drawn at their frames: {misplaced}" if misplaced else "the picture still changes")
    return wait_until(settled, what, timeout=timeout, context=context, interval=0.1)


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

    @staticmethod
    def measures(entry: dict) -> bool:
        """Whether it sizes this entry to its content and tells presentd (src/size.c): an
        alert's height, a custom style's "content" dimensions. Until that size is in the
        stack (`preferredContentSize`), the entry's frame is its style's default."""
        style = entry.get("style")
        sized = style == "alert" or (isinstance(style, dict) and "content" in (style.get("width"), style.get("height")))
        return sized and entry.get("content") is not None  # nothing to measure without content

    @staticmethod
    def measured(entry: dict) -> bool:
        """Whether a size is in presentd's stack where the renderer measures one. For an alert
        it is the renderer's; a client may give a first size itself (presentd-notify's 96
        points, presentctl toast's 300 x 36), which the measure then replaces: `misdrawn`
        tells whether the card is drawn at its frame."""
        return not Renderer.measures(entry) or entry.get("preferredContentSize") is not None

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
