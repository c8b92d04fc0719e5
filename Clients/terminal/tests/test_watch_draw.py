"""`presentctl watch --draw` in a real terminal (tmux), against a manual-clock daemon:
mid-transition and after it, the content's box sits in the cells its frame maps to and the
dimming is shaded by its alpha."""

from __future__ import annotations

import math
import os
import re
import shutil
import subprocess

import pytest

from presentd import Client, Frame
from presentd.daemon import find_binary, wait_until

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="no tmux (apt-get install tmux)")


@pytest.fixture
def pane(manual, tmp_path):
    """presentctl watch --draw in a detached 100×40 tmux session on a private server; the
    pane stays after presentctl exits, so its last words can be read. The server is named for
    this test alone: the previous test's, just killed, may not have gone yet."""
    server = f"presentd-test-{os.getpid()}-{tmp_path.name}"
    config = tmp_path / "tmux.conf"
    config.write_text("set -g remain-on-exit on\n")
    command = f"{find_binary('presentctl')} --socket {manual.path} watch --draw"
    env = {**os.environ, "LANG": "C.UTF-8"}
    subprocess.run(["tmux", "-u", "-L", server, "-f", str(config), "new-session", "-d", "-x", "100", "-y", "40",
                    command], check=True, env=env)

    def capture() -> list[str]:
        return subprocess.run(["tmux", "-u", "-L", server, "capture-pane", "-p"], capture_output=True, text=True,
                              check=True, env=env).stdout.split("\n")

    def state() -> str:
        """Whether presentctl still runs (the pane stays when it exits), for failure messages."""
        return subprocess.run(["tmux", "-L", server, "display-message", "-p",
                               "presentctl: pane dead #{pane_dead}, exit status #{pane_dead_status}"],
                              capture_output=True, text=True, env=env).stdout.strip()

    capture.state = state
    yield capture
    subprocess.run(["tmux", "-L", server, "kill-server"], capture_output=True)


def wait_for(capture, pattern: str, check=None, timeout: float = 60) -> list[str]:
    """The pane once a line matches ``pattern`` and ``check(lines)`` passes. presentctl writes
    the header line first, so the header alone can show while tmux is still taking in the
    rest of the picture: the picture is checked until it is whole. Generous: presentctl's
    first picture waits for its start-up, slow on a loaded machine."""
    def drawn() -> list[str] | None:
        lines = capture()
        if not any(re.search(pattern, line) for line in lines):
            return None
        if check is not None:
            try:
                check(lines)
            except (StopIteration, AttributeError, IndexError) as error:  # not even the border and scale yet
                raise AssertionError(f"the picture is not whole: {error!r}") from error
        return lines

    return wait_until(drawn, f"the pane to show {pattern!r}", timeout=timeout, interval=0.05,
                      context=lambda: capture.state() + "\n" + "\n".join(capture()))


def cells(value: float, per_cell: float) -> set[int]:
    """The cell index of a coordinate, for the scale as printed (rounded to 0.01 pt):
    both answers when the rounding could move it across a cell boundary."""
    return {math.floor(value / (per_cell - 0.005)), math.floor(value / (per_cell + 0.005))}


def shade(alpha: float) -> str:
    return "░" if alpha < 0.35 else "▒" if alpha < 0.65 else "▓"


def check_picture(lines: list[str], frame: Frame, id: str) -> None:
    top = next(i for i, l in enumerate(lines) if "╔" in l)
    origin = (lines[top].index("╔") + 1, top + 1)  # the container's first cell inside the border
    px = float(re.search(r"1 column = ([\d.]+) pt", "\n".join(lines)).group(1))
    layer = frame.layer(id)
    r = layer.visible_frame
    # The box covers the cells from the one holding its top-left point to the one before
    # its far edges.
    corners = {"┌": (r.x, r.y, 0), "┘": (r.max_x, r.max_y, -1)}
    for char, (x, y, shift) in corners.items():
        found = [(c, l) for l, line in enumerate(lines) for c, ch in enumerate(line) if ch == char]
        expected = [(origin[0] + c + shift, origin[1] + l + shift) for c in cells(x, px) for l in cells(y, 2 * px)]
        assert len(found) == 1 and found[0] in expected, f"{char} at {found}, not {expected}:\n" + "\n".join(lines)
    middle = {origin[1] + l for l in cells(r.y + r.height / 2, 2 * px)}
    assert any(id in lines[l] for l in middle | {max(middle) + 1})
    dimming = frame.layer(id, "dimming")
    assert lines[origin[1]][origin[0]] == shade(dimming.alpha)  # the top-left cell is dimmed, not covered


def test_watch_draw_follows_the_frame_stream(manual, pane):
    wait_for(pane, r"frame 0 ")
    with Client(manual.path) as app:
        app.subscribe(["frames"])
        app.present(style="alert", id="probe", statusBar={"style": "lightContent"},
                    transition={"type": "coverVertical", "duration": 0.4, "timing": "linear"})
        for seconds, moving in [(0.2, True), (0.3, False)]:
            app.advance(seconds)
            app.sync()
            frame = [e for e in app.events(timeout=0) if isinstance(e, Frame)][-1]
            assert frame.animating == moving
            wait_for(pane, rf"frame {frame.seq} · t={frame.time:.3f} s · status bar lightContent",
                     lambda lines: check_picture(lines, frame, "probe"))
        app.dismiss("probe", animated=False)
        app.advance(0.1)

    def gone(lines):  # the box, and the dimming with it
        assert not any(c in "".join(lines) for c in "┌░▒▓"), "\n".join(lines)

    wait_for(pane, r"frame \d+ .*status bar default", gone)


def test_watch_draw_says_when_the_daemon_stops(manual, pane):
    wait_for(pane, r"frame 0 ")
    manual.process.terminate()
    wait_for(pane, r"presentd: shutdown \(SIGTERM\)")
