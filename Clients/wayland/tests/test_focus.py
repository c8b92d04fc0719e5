"""Focus as desktop toolkits give it, on a real headless sway: the issue's Rename dialog, presented
by presentctl as a script does, has its first field focused with the preset text selected
(GTK's gtk-entry-select-on-focus, zenity --entry), so what is typed first replaces it; Tab
moves on to the buttons, and the accent follows to the button Enter chooses. What the answer
carries is what presentctl prints; what is drawn is read from the screenshot's pixels."""

from __future__ import annotations

import json
import subprocess

import pytest

from presentd.daemon import find_binary, wait_until

from test_input import ACCENT, find_colour, screen, wtype  # noqa: F401 (screen is the fixture)
from test_wayland import close, over, rest_frame, wait_pixels

# A rename dialog with a text field, as an app asks for one, and a cancel action for Tab to reach.
RENAME = ["--title", "Rename", "--field", "name:text:New name", "--value", "name=draft.txt",
          "--action", "ok:Rename:default", "--action", "cancel:Cancel:cancel"]
FIELD = (255, 255, 255)             # the theme's field (src/theme.c)
TINT = over(ACCENT, 0.3, FIELD)     # the selection behind the text (src/card.c, field)


class Rename:
    """`presentctl present … --wait --json` on the manual daemon, presented and drawn at rest."""

    def __init__(self, screen, socket: str):
        self.sway, self.renderer, self.helper, self.app = screen
        self.process = subprocess.Popen([find_binary("presentctl"), "--socket", socket, "present", *RENAME,
                                         "--wait", "--json"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        entry = wait_until(lambda: next(iter(self.app.call("stack")["entries"]), None),
                           "presentctl's Rename dialog in the stack", timeout=30, context=self.context)
        self.id = entry["id"]
        self.app.call("advance", {"seconds": 1})
        self.frame = rest_frame(self.app, self.id)
        f = self.frame
        self.box = tuple(round(v) for v in (f["x"], f["y"], f["x"] + f["width"], f["y"] + f["height"]))
        self.shot(lambda image: self.field(image), "the Rename dialog drawn at rest with its field's focus ring")

    def context(self) -> str:
        return self.renderer.context()

    def shot(self, check, what):
        """Screenshots until check(image) holds; its value."""
        found = {}

        def held(image):
            found["value"] = check(image)
        wait_pixels(self.sway, "HEADLESS-1", held, what, self.renderer)
        return found["value"]

    def accent_runs(self, image):
        """The boxes of the card's accent pixels, one per run of rows that have some: the focus
        ring and the accent-filled button, top to bottom."""
        x0, y0, x1, y1 = self.box
        runs = []
        for y in range(y0, y1):
            row = find_colour(image, (x0, y, x1, y + 1), ACCENT)
            if not row:
                continue
            if runs and runs[-1][3] == y - 1:
                last = runs[-1]
                runs[-1] = (min(last[0], row[0]), last[1], max(last[2], row[2]), y)
            else:
                runs.append((row[0], y, row[2], y))
        return runs

    def field(self, image):
        """The focused field's inside (within its ring): the top run of accent, above the buttons."""
        runs = self.accent_runs(image)
        assert len(runs) >= 2, f"a focus ring above the accent button: accent in rows {runs}"
        ring = runs[0]
        assert ring[3] - ring[1] < (self.box[3] - self.box[1]) / 2, f"the ring around the field, not a button: {runs}"
        return (ring[0] + 4, ring[1] + 4, ring[2] - 3, ring[3] - 3)

    def answer(self, what: str, status: int = 0) -> dict:
        """What presentctl prints once the dialog is answered (the clock advanced until it is),
        and its exit status: 0, or 5 for the cancel action."""
        def done():
            if self.process.poll() is None:
                self.app.call("advance", {"seconds": 0.5})
                return None
            return True
        wait_until(done, f"presentctl to print the answer {what}", timeout=30, context=self.context)
        out, err = self.process.communicate(timeout=10)
        assert self.process.returncode == status, f"presentctl exited with {self.process.returncode}, not {status}: {out}{err}"
        return json.loads(out)


def count(image, box, colour, tolerance=6) -> int:
    return sum(close(image.getpixel((x, y)), colour, tolerance) for y in range(box[1], box[3]) for x in range(box[0], box[2]))


def caret(image, box) -> int:
    """The tallest column of dark (text) pixels inside box: a caret is as tall as a line, an x's
    strokes are slanted and as tall as an x."""
    best = 0
    for x in range(box[0], box[2]):
        run = 0
        for y in range(box[1], box[3]):
            run = run + 1 if max(image.getpixel((x, y))[:3]) < 160 else 0
            best = max(best, run)
    return best


@pytest.mark.parametrize("backspaces", [0, 9], ids=["x", "backspace-9-times-then-x"])
def test_what_is_typed_first_replaces_the_selected_preset_text(screen, manual, backspaces):
    """x right after the dialog appears; or the issue's Backspace nine times then x, which gave
    draft.txtx: the first Backspace erases the selected text, the others find nothing."""
    dialog = Rename(screen, manual.path)
    wtype(dialog.sway, *["-k", "BackSpace"] * backspaces, "x")
    wtype(dialog.sway, "-k", "Return")
    answer = dialog.answer(f"for {backspaces} Backspaces, x, Enter")
    assert answer.get("fields") == {"name": "x"}, f"x replaced the selected draft.txt: {answer}"


def test_tab_reaches_the_buttons_the_accent_follows_and_enter_answers_cancel(screen, manual):
    dialog = Rename(screen, manual.path)
    x0, y0, x1, y1 = dialog.box
    middle = (x0 + x1) // 2

    def marked(image):
        runs = dialog.accent_runs(image)
        assert runs, "no accent on the card"
        return runs[-1]
    button = dialog.shot(marked, "the default button accent-filled")
    assert button[0] > middle, f"before Tab the accent is on Rename, the right-hand button: {button}, card {dialog.box}"
    wtype(dialog.sway, "-k", "Tab")   # past the only field: the row's first button, Cancel

    def moved(image):
        runs = dialog.accent_runs(image)
        assert len(runs) == 1 and runs[0][2] < middle, \
            f"after Tab the accent and the ring are on Cancel only, the field's ring gone: {runs}, card {dialog.box}"
    dialog.shot(moved, "the accent and the focus ring moved to the Cancel button")
    wtype(dialog.sway, "-k", "Return")
    answer = dialog.answer("for Tab then Enter", status=5)
    assert answer.get("action") == "cancel", f"Enter on the focused Cancel button answers cancel: {answer}"


def test_the_selection_is_drawn_then_a_caret_once_a_character_replaced_it(screen, manual):
    dialog = Rename(screen, manual.path)

    def selected(image):
        inside = dialog.field(image)
        tinted = count(image, inside, TINT)
        assert tinted > 100, f"the selected draft.txt on the accent tint in the field {inside}: {tinted} pixels"
        return inside, tinted
    inside, tinted = dialog.shot(selected, "the preset text drawn selected")
    wtype(dialog.sway, "x")

    def typed(image):
        tinted_now, tall = count(image, inside, TINT), caret(image, inside)
        assert tinted_now < 10 and tall >= 12, \
            f"the tint gone ({tinted_now} pixels, {tinted} before) and a caret as tall as a line ({tall} px) in {inside}"
    dialog.shot(typed, "the selection gone and the caret drawn after the typed x")
    wtype(dialog.sway, "-k", "Escape")
    assert dialog.answer("for Escape", status=5).get("action") == "cancel"
