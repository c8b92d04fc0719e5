"""`presentctl watch --draw` in a real terminal (tmux), against a manual-clock daemon:
mid-transition and after it, the content's box sits in the cells its frame maps to and the
dimming is shaded by its alpha; a dialog's title and buttons are drawn inside its box (the
default button bold), from the entry's content, and redrawn when an update changes it."""

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
    """presentctl watch --draw in a detached 100×40 tmux session on a private server."""
    yield from tmux_pane(manual, tmp_path, 100, 40)


@pytest.fixture
def pane_100x50(manual, tmp_path):
    """The same at 100×50, the size a newcomer saw a column left uncovered at: the container is 42.5 columns of
    9.17 pt there, so rounding decides whether its last column is covered."""
    yield from tmux_pane(manual, tmp_path, 100, 50)


def tmux_pane(manual, tmp_path, columns: int, rows: int):
    """presentctl watch --draw in a detached COLUMNS×ROWS tmux session on a private server;
    the pane stays after presentctl exits, so its last words can be read. The server is
    named for this test alone: the previous test's, just killed, may not have gone yet."""
    server = f"presentd-test-{os.getpid()}-{tmp_path.name}"
    config = tmp_path / "tmux.conf"
    config.write_text("set -g remain-on-exit on\n")
    command = f"{find_binary('presentctl')} --socket {manual.path} watch --draw"
    env = {**os.environ, "LANG": "C.UTF-8"}
    subprocess.run(["tmux", "-u", "-L", server, "-f", str(config), "new-session", "-d", "-x", str(columns),
                    "-y", str(rows), command], check=True, env=env)

    def capture(escapes: bool = False) -> list[str]:
        """The pane's lines; with ``escapes``, with their SGR attributes (capture-pane -e)."""
        return subprocess.run(["tmux", "-u", "-L", server, "capture-pane", "-p"] + (["-e"] if escapes else []),
                              capture_output=True, text=True, check=True, env=env).stdout.split("\n")

    def state() -> str:
        """Whether presentctl still runs (the pane stays when it exits), for failure messages."""
        return subprocess.run(["tmux", "-L", server, "display-message", "-p",
                               "presentctl: pane dead #{pane_dead}, exit status #{pane_dead_status}"],
                              capture_output=True, text=True, env=env).stdout.strip()

    def resize(columns: int, rows: int) -> None:
        """Resizes the window, as a person dragging the terminal's corner: presentctl gets SIGWINCH."""
        subprocess.run(["tmux", "-L", server, "resize-window", "-x", str(columns), "-y", str(rows)],
                       check=True, capture_output=True, env=env)

    capture.state = state
    capture.resize = resize
    yield capture
    subprocess.run(["tmux", "-L", server, "kill-server"], capture_output=True)


def drawn(capture, condition, what: str, timeout: float = 60) -> list[str]:
    """The pane once `condition(lines)` holds. Generous: presentctl's first picture waits for
    its start-up, slow on a loaded machine."""
    def lines() -> list[str] | None:
        shown = capture()
        return shown if condition(shown) else None

    return wait_until(lines, f"the pane to show {what}", timeout=timeout, interval=0.05,
                      context=lambda: capture.state() + "\n" + "\n".join(capture()))


def wait_for(capture, pattern: str, timeout: float = 60) -> list[str]:
    """The pane once a line matches `pattern`."""
    return drawn(capture, lambda lines: any(re.search(pattern, line) for line in lines), repr(pattern), timeout)


def cells(value: float, per_cell: float) -> set[int]:
    """The cell boundary nearest to a coordinate (edges go to the nearest boundary), for the
    scale as printed (rounded to 0.01 pt): both answers when the rounding could move it."""
    return {round(value / (per_cell - 0.005)), round(value / (per_cell + 0.005))}


def shade(alpha: float) -> str:
    return "░" if alpha < 0.35 else "▒" if alpha < 0.65 else "▓"


def settle(capture, check, what: str) -> list[str]:
    """The pane once `check(lines)` passes: a picture is drawn top to bottom, so its first
    lines can be new while the rest are still the last picture's."""
    def passes(lines: list[str]) -> bool:
        try:
            check(lines)
            return True
        except (AssertionError, ValueError, StopIteration, AttributeError, IndexError):
            return False

    return drawn(capture, passes, what)


def check_picture(lines: list[str], frame: Frame, id: str) -> None:
    top = next(i for i, l in enumerate(lines) if "╔" in l)
    origin = (lines[top].index("╔") + 1, top + 1)  # the container's first cell inside the border
    px = float(re.search(r"1 column = ([\d.]+) pt", "\n".join(lines)).group(1))
    layer = frame.layer(id)
    r = layer.visible_frame
    # The box covers the cells from the boundary nearest its top-left point to the one
    # nearest its far edges.
    corners = {"┌": (r.x, r.y, 0), "┘": (r.max_x, r.max_y, -1)}
    for char, (x, y, shift) in corners.items():
        found = [(c, l) for l, line in enumerate(lines) for c, ch in enumerate(line) if ch == char]
        expected = [(origin[0] + c + shift, origin[1] + l + shift) for c in cells(x, px) for l in cells(y, 2 * px)]
        assert len(found) == 1 and found[0] in expected, f"{char} at {found}, not {expected}:\n" + "\n".join(lines)
    # The id is centred between the corners just checked.
    (_, top_row), (_, bottom_row) = [next((c, l) for l, line in enumerate(lines) for c, ch in enumerate(line) if ch == char)
                                     for char in "┌┘"]
    assert id in lines[(top_row + bottom_row) // 2], f"{id} not on row {(top_row + bottom_row) // 2}:\n" + "\n".join(lines)
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
            header = rf"frame {frame.seq} · t={frame.time:.3f} s · status bar lightContent"

            def picture(lines: list[str]) -> None:
                assert re.search(header, lines[0])
                check_picture(lines, frame, "probe")

            settle(pane, picture, f"{header}, with the box where that frame puts it")
        app.dismiss("probe", animated=False)
        app.advance(0.1)
    # Gone, and the dimming with it (the status bar's change may be drawn a frame earlier).
    drawn(pane, lambda lines: re.search(r"frame \d+ .*status bar default", lines[0])
               and not any(c in "".join(lines) for c in "┌░▒▓"), "the status bar back to default, no box, no dimming")


def test_watch_draw_says_when_the_daemon_stops(manual, pane):
    wait_for(pane, r"frame 0 ")
    manual.process.terminate()
    wait_for(pane, r"presentd: shutdown \(SIGTERM\)")


def bold_cells(line: str) -> list[tuple[str, bool]]:
    """A line captured with escapes as (character, bold) pairs."""
    cells, bold = [], False
    for part in re.split(r"(\x1b\[[\d;]*m)", line):
        if part.startswith("\x1b["):
            for code in (part[2:-1] or "0").split(";"):
                if code in ("0", ""):
                    bold = False
                elif code == "1":
                    bold = True
                elif code == "22":
                    bold = False
        else:
            cells.extend((c, bold) for c in part)
    return cells


def is_bold(line: str, text: str) -> bool:
    cells = bold_cells(line)
    plain = "".join(c for c, _ in cells)
    start = plain.index(text)
    return all(b for _, b in cells[start:start + len(text)])


def test_watch_draw_shows_a_dialogs_title_and_buttons(manual, pane):
    wait_for(pane, r"frame 0 ")
    with Client(manual.path) as app:
        app.present(style="alert", id="ask", transition={"type": "coverVertical", "duration": 0.4, "timing": "linear"},
                    content={"title": "Quit now?", "message": "Unsaved work is lost.",
                             "actions": [{"id": "ok", "title": "OK", "role": "default"},
                                         {"id": "no", "title": "Cancel", "role": "cancel"}]})

        # Coming up from below the container: only its top rows are inside, drawn and clipped.
        def rising(lines: list[str]) -> None:
            assert re.search(r"t=0\.100 s", lines[0])
            assert any(" ask " in l and "┌" in l for l in lines) and not any("└" in l for l in lines)

        app.advance(0.1)
        app.sync()
        settle(pane, rising, "t=0.100 s: the dialog's top rows at the bottom of the container")

        # At rest, inside the box: its id in the top border, the title on the first row, the
        # message below it, the buttons on the last row.
        def at_rest(lines: list[str]) -> None:
            top = next(i for i, l in enumerate(lines) if "┌" in l)
            bottom = next(i for i, l in enumerate(lines) if "└" in l)
            left, right = lines[top].index("┌"), lines[top].index("┐")
            assert " ask " in lines[top][left:right]
            inside = [l[left + 1:right] for l in lines[top + 1:bottom]]
            assert inside[0].strip() == "Quit now?"
            assert "Unsaved" in inside[1]
            assert inside[-1].strip() == "[ OK ]  [ Cancel ]"

        app.advance(0.4)
        app.sync()
        settle(pane, at_rest, "the dialog at rest: id, title, message, [ OK ]  [ Cancel ]")
        # The default button is emphasised (bold), the other is not.
        styled = next(l for l in pane(escapes=True) if "Cancel" in l)
        assert is_bold(styled, "[ OK ]") and not is_bold(styled, "[ Cancel ]"), repr(styled)

        # Frames carry only the revision: the new content comes with the `updated` event.
        def updated(lines: list[str]) -> None:
            assert any(re.search(r"│ *\[ Close \] *│", l) for l in lines)
            assert any(re.search(r"│ *Saved *│", l) for l in lines)
            assert any(re.search(r"\[█+░+\] +50%", l) for l in lines)
            assert not any("Quit now?" in l or "Cancel" in l for l in lines)

        app.call("update", {"id": "ask", "content": {"title": "Saved", "progress": 0.5,
                                                      "actions": [{"id": "close", "title": "Close"}]}})
        app.sync()
        settle(pane, updated, "the updated dialog: Saved, a half-full bar, [ Close ]")
        styled = next(l for l in pane(escapes=True) if "Close" in l)
        assert not is_bold(styled, "[ Close ]"), repr(styled)

        # Sliding out, nearly gone (at 0.8 s, 0.3 s into 0.31 s): only its top border is still
        # in the container, on its last row, and nothing of the inside is drawn.
        def nearly_gone(lines: list[str]) -> None:
            assert re.search(r"t=0\.800 s", lines[0])
            bottom = next(i for i, l in enumerate(lines) if "╚" in l)
            assert "┌" in lines[bottom - 1] and " ask " in lines[bottom - 1]
            assert not any("└" in l or "Saved" in l for l in lines)

        app.call("dismiss", {"id": "ask", "transition": {"type": "coverVertical", "duration": 0.31, "timing": "linear"}})
        app.advance(0.3)
        app.sync()
        settle(pane, nearly_gone, "t=0.800 s: only the dialog's top border, on the container's last row")


def test_watch_draw_marks_levels_draws_a_toast_undimmed_and_clips_a_context(manual, pane):
    """A toast (overlay) above a sheet in a context: the toast is a rounded box naming its
    level, too thin for an inside, so its text is in its border; the sheet's dimming shades
    only the context, and nothing dims under the toast. An alert-level entry is heavy."""
    wait_for(pane, r"frame 0 ")
    quick = {"type": "crossDissolve", "duration": 0}
    with Client(manual.path) as app:
        app.define_context("mail", (0, 300, 390, 400))
        app.present(id="sheet", style="bottomHalf", context="mail", transition=quick)
        # 30 pt tall: less than three rows of 11.72 × 2 pt, too thin for an inside.
        app.toast("Saved", id="saved", transition=quick, after=30,
                  style={"type": "custom", "width": {"sideMargin": 16}, "height": {"points": 30}})
        app.advance(0.1)
        app.sync()

        def scene(lines: list[str]) -> None:
            assert re.search(r"t=0\.100 s", lines[0])
            px = float(re.search(r"1 column = ([\d.]+) pt", "\n".join(lines)).group(1))
            top = next(i for i, l in enumerate(lines) if "╔" in l) + 1  # the container's first row
            toast = next(l for l in lines if "╭" in l)
            assert " saved [overlay]: Saved " in toast and "╮" in toast, toast
            assert any("╰" in l and "╯" in l for l in lines), "the toast's rounded bottom corners"
            assert any(re.search(r"│ *sheet *│", l) for l in lines), "a normal-level entry names no level"
            # Above the context nothing is dimmed, under the toast neither; inside it is.
            above = lines[top + int(250 / (2 * px))]
            assert not any(c in above for c in "░▒▓"), above
            assert not any(c in toast for c in "░▒▓"), toast
            inside = lines[top + int(320 / (2 * px))]
            assert "▓" in inside, inside

        settle(pane, scene, "the toast's rounded box over an undimmed top, the sheet's dimming only in its context")
        app.present(id="sys", level="alert", style="alert", transition=quick)
        app.advance(0.1)
        app.sync()
        # Above everything, the toast included: its dimming covers the toast, its box is heavy.
        # The dimming darkens what is under it, it does not hide it: the toast is still drawn, faint.
        drawn(pane, lambda lines: any("┏" in l for l in lines) and any(re.search(r"┃ *sys \[alert\] *┃", l) for l in lines),
              "the alert-level entry's heavy box")
        toast = next(l for l in pane(escapes=True) if "╭" in l)
        assert faint(toast, "saved"), repr(toast)


def faint(line: str, text: str) -> bool:
    """Whether `text` in a line captured with escapes is drawn faint (SGR 2: under a dimming)."""
    cells, dim = [], False
    for part in re.split(r"(\x1b\[[\d;]*m)", line):
        if part.startswith("\x1b["):
            for code in (part[2:-1] or "0").split(";"):
                if code in ("0", "", "22"):
                    dim = False
                elif code == "2":
                    dim = True
        else:
            cells.extend((c, dim) for c in part)
    plain = "".join(c for c, _ in cells)
    start = plain.index(text)
    return all(d for _, d in cells[start:start + len(text)])


def container_cells(lines: list[str]) -> list[str]:
    """The rows inside the container's double border, without the border."""
    top = next(i for i, l in enumerate(lines) if "╔" in l)
    bottom = next(i for i, l in enumerate(lines) if "╚" in l)
    left, right = lines[top].index("╔"), lines[top].index("╗")
    return [l[left + 1:right] for l in lines[top + 1:bottom]]


def test_watch_draw_covers_the_whole_container_and_centres_a_toast(manual, pane_100x50):
    """At 100×50 a full-screen dimming covers every column and row of the container (it
    left the last column and row uncovered), and a toast, 16 pt from either side, has as
    many empty columns left of it as right of it (it had 1 and 3)."""
    pane = pane_100x50
    wait_for(pane, r"frame 0 ")
    quick = {"type": "crossDissolve", "duration": 0}
    with Client(manual.path) as app:
        app.toast("Saved", id="saved", transition=quick, after=30)
        app.advance(0.1)
        app.sync()

        def centred(lines: list[str]) -> None:
            assert re.search(r"t=0\.100 s", lines[0])
            row = next(l for l in container_cells(lines) if "╭" in l)
            left, right = row.index("╭"), len(row) - 1 - row.index("╮")
            assert left == right, f"{left} empty columns left of the toast, {right} right of it: {row!r}"

        settle(pane, centred, "the toast with equal margins")
        app.dismiss("saved", animated=False)
        app.present(id="pop", style="popup", background={"opacity": 0.5}, transition=quick)
        app.advance(0.1)
        app.sync()

        def covered(lines: list[str]) -> None:
            assert re.search(r"t=0\.200 s", lines[0])
            inside = container_cells(lines)
            assert inside and all(len(row) == len(inside[0]) for row in inside)
            # The popup sits inside; its dimming covers the whole container, edges included.
            for row in (inside[0], inside[-1]):
                assert set(row) == {"▒"}, row
            assert {row[-1] for row in inside} == {"▒"}, "the last column: " + "".join(r[-1] for r in inside)

        settle(pane, covered, "the dimming over every column and row of the container")


def test_watch_draw_shows_the_sheet_under_an_alerts_dimming(manual, pane):
    """An alert-level entry's dimming darkens the sheet under it; the sheet's box and title
    stay readable (faint), as UIKit's dimming view lets them show through."""
    wait_for(pane, r"frame 0 ")
    quick = {"type": "crossDissolve", "duration": 0}
    with Client(manual.path) as app:
        app.present(id="sheet", style="topHalf", transition=quick, content={"title": "Under it"})
        app.present(id="sys", level="alert", style="alert", transition=quick, background={"opacity": 0.9})
        app.advance(0.1)
        app.sync()
        drawn(pane, lambda lines: any(re.search(r"┃ *sys \[alert\] *┃", l) for l in lines)
              and any("Under it" in l for l in lines) and any(" sheet " in l for l in lines),
              "the alert's box, and the sheet's title and id still drawn under its dimming")
        styled = next(l for l in pane(escapes=True) if "Under it" in l)
        assert faint(styled, "Under it"), repr(styled)


def test_watch_draw_redraws_when_the_terminal_is_resized(manual, pane):
    """Nothing moves (manual clock, no frames), and the picture still follows the terminal's
    new size at once: SIGWINCH redraws."""
    lines = wait_for(pane, r"frame 0 ")
    before = re.search(r"1 column = ([\d.]+) pt", "\n".join(lines)).group(1)
    pane.resize(60, 30)

    def redrawn(lines: list[str]) -> bool:
        note = re.search(r"1 column = ([\d.]+) pt", "\n".join(lines))
        top = next((l for l in lines if "╔" in l), "")
        return bool(note) and note.group(1) != before and len(top.rstrip()) <= 60 and "╗" in top

    drawn(pane, redrawn, f"the picture redrawn for 60×30 (the scale was {before} pt a column)")
    # Not because of a frame: the header still names frame 0.
    assert re.search(r"frame 0 ", pane()[0]), pane()[0]


def test_watch_draw_puts_a_sheets_grabber_on_its_top_border(manual, pane):
    """A sheet's grabber layer is a short heavy bar on the sheet's top border, centred: not a
    box of its own over the sheet's content, whose title stays."""
    wait_for(pane, r"frame 0 ")
    with Client(manual.path) as app:
        app.present(id="sheet", content={"title": "Share"}, transition={"type": "crossDissolve", "duration": 0},
                    style={"type": "sheet", "detents": ["medium", "large"], "grabber": True})
        app.advance(0.1)
        app.sync()

        def grabber_on_the_border(lines: list[str]) -> bool:
            border = next((l for l in lines if re.search(r"┌─+ sheet ─+┐", l.replace("━", "─"))), None)
            if border is None or "━" not in border:
                return False
            left, right = border.index("┌"), border.rindex("┐")
            bar = [i for i, c in enumerate(border) if c == "━"]
            middle = (left + right) / 2
            return bar == list(range(bar[0], bar[-1] + 1)) and 2 <= len(bar) <= 8 and \
                abs((bar[0] + bar[-1]) / 2 - middle) <= 1.5 and any("Share" in l for l in lines)

        drawn(pane, grabber_on_the_border, "the sheet's box with a short bar centred on its top border, and its title")
