"""Input on presentd-wayland, on a real headless sway: the pointer from `swaymsg seat seat0
cursor`, keys from `wtype`. Each test ends in what the presenting app (the owner) received.

The headless seat has no input devices, hence no capabilities, and no client would get pointer
or key events; build/input-helper gives it a virtual pointer and keyboard for the test's
length, and is the window below the overlay (it prints "click X Y" for every click that
reaches it)."""

from __future__ import annotations

import queue
import shutil
import subprocess
import threading

import pytest

from presentd import Client
from presentd.daemon import wait_until

from conftest import CARD, RENDERER
from test_wayland import close, hex_rgb, present_measured, rest_frame, screen_ready, wait_pixels

HELPER = RENDERER.parent / "input-helper"
ACCENT = hex_rgb("#3685e3")       # the theme's default button (src/theme.c)
DESTRUCTIVE = hex_rgb("#e01c24")


class Helper:
    """build/input-helper on a sway: the seat's pointer and keyboard, and the window below."""

    def __init__(self, sway, *args: str):
        self.process = subprocess.Popen([str(HELPER), *args], env=sway.env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.STDOUT, text=True)
        self.lines: queue.Queue[str] = queue.Queue()
        self.seen: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()
        self.wait_line("ready", "the input helper's virtual pointer and keyboard on the seat, and its window mapped")

    def _read(self):
        for line in self.process.stdout:
            self.lines.put(line.strip())

    def wait_line(self, prefix: str, what: str) -> str:
        def line():
            try:
                text = self.lines.get(timeout=0.05)
            except queue.Empty:
                if self.process.poll() is not None:
                    raise RuntimeError(f"the input helper exited with {self.process.returncode}: {self.seen}")
                return None
            self.seen.append(text)
            return text if text.startswith(prefix) else None
        return wait_until(line, what, timeout=60, context=lambda: f"the helper said {self.seen}")

    def move(self, dx: float, dy: float):
        """Moves the pointer as a mouse does (motion events, to the surface holding the button)."""
        self.process.stdin.write(f"move {dx} {dy}\n")
        self.process.stdin.flush()
        self.wait_line("moved", f"the helper's pointer moved by {dx:g},{dy:g}")

    def keys(self, *codes: int):
        """Presses and releases these evdev key codes on its keyboard, read through its layout."""
        self.process.stdin.write(f"key {' '.join(map(str, codes))}\n")
        self.process.stdin.flush()
        self.wait_line("keyed", f"the helper's keys {codes} sent")

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            self.process.wait(10)


@pytest.fixture
def screen(manual, sway_factory, renderer_factory):
    """An 800x600 sway with the helper's window, the renderer, and main ready."""
    if not HELPER.exists():
        pytest.skip(f"{HELPER} is not built (make -C Clients/wayland)")
    if not shutil.which("wtype"):
        pytest.skip("wtype is not installed")
    sway = sway_factory(width=800, height=600, scale=1)
    helper = Helper(sway)
    renderer = renderer_factory(sway, manual.path)
    with Client(manual.path) as app:
        screen_ready(app, renderer, "main", 800, 600, 1)
        yield sway, renderer, helper, app
    helper.stop()


def window_point(sway, x: float, y: float) -> str:
    """What the helper prints for a click at (x, y) of the output: the point in its window, which
    sway tiles inside a border and under a title bar."""
    def views(node):
        yield node
        for child in node.get("nodes", []) + node.get("floating_nodes", []):
            yield from views(child)
    view = next(n for n in views(sway.msg("-t", "get_tree")) if n.get("name") == "presentd input test")
    left, top = view["rect"]["x"] + view["window_rect"]["x"], view["rect"]["y"] + view["window_rect"]["y"]
    return f"click {round(x) - left} {round(y) - top}"


def cursor(sway, *args: str):
    sway.msg("seat", "seat0", "cursor", *args)


def click(sway, x: float, y: float):
    cursor(sway, "set", str(round(x)), str(round(y)))
    cursor(sway, "press", "button1")
    cursor(sway, "release", "button1")


def wtype(sway, *args: str):
    out = subprocess.run(["wtype", *args], env=sway.env, capture_output=True, text=True, timeout=30)
    assert out.returncode == 0, f"wtype {' '.join(args)}: {out.stderr}"


def owner_event(app: Client, what: str, match, renderer):
    """The owner's next event that `match` accepts (others are passed over)."""
    def next_match():
        event = app.next_event(timeout=0.1)
        return event if event is not None and match(event) else None
    return wait_until(next_match, what, timeout=20, context=renderer.context)


def is_action(event) -> bool:
    return getattr(event, "action", None) is not None and hasattr(event, "fields")


def find_colour(image, box, colour, tolerance=6):
    """The bounding box of the pixels of `colour` inside box (x0, y0, x1, y1), or None."""
    xs, ys = [], []
    for y in range(int(box[1]), int(box[3])):
        for x in range(int(box[0]), int(box[2])):
            if close(image.getpixel((x, y)), colour, tolerance):
                xs.append(x)
                ys.append(y)
    return (min(xs), min(ys), max(xs), max(ys)) if xs else None


def present_at_rest(sway, renderer, app, params, colour_at=None):
    """Presents, advances to rest once the renderer's measured size (if any) is in, and waits
    until the card is drawn there; its frame."""
    present_measured(app, params, renderer)
    app.call("advance", {"seconds": 1})
    f = rest_frame(app, params["id"])

    def drawn(image):
        at = colour_at or (f["x"] + 6, f["y"] + f["height"] / 2)
        pixel = image.getpixel((round(at[0]), round(at[1])))
        assert close(pixel, CARD), f"the card at {at}: {pixel}"
    wait_pixels(sway, "HEADLESS-1", drawn, f"{params['id']} drawn at rest", renderer)
    return f


ALERT = {"id": "a", "style": "alert", "background": {"color": "#000000", "opacity": 0.4},
         "content": {"title": "Delete file?", "actions": [{"id": "ok", "title": "Delete", "role": "destructive"},
                                                          {"id": "no", "title": "Cancel", "role": "cancel"}]}}


def test_a_click_on_a_button_shows_it_pressed_and_activates_it(screen):
    sway, renderer, helper, app = screen
    f = present_at_rest(sway, renderer, app, ALERT)
    box = (f["x"], f["y"], f["x"] + f["width"], f["y"] + f["height"])
    button = find_colour(sway.screenshot(), box, DESTRUCTIVE)
    assert button, "the destructive button is drawn in its colour"
    x, y = (button[0] + button[2]) / 2, button[1] + 4
    cursor(sway, "set", str(round(x)), str(round(y)))
    cursor(sway, "press", "button1")
    pressed = tuple(round(c * 0.75) for c in DESTRUCTIVE)   # 25 % black over it (src/card.c)

    def held(image):
        # Left of the pointer, which grim draws too, and clear of the title.
        at = (button[0] + 6, button[1] + 4)
        assert close(image.getpixel(at), pressed, 6), f"the held button at {at}: {image.getpixel(at)}, want {pressed}"
    wait_pixels(sway, "HEADLESS-1", held, "the destructive button drawn pressed while held", renderer)
    cursor(sway, "release", "button1")
    event = owner_event(app, "the owner's action event for the click on Delete", is_action, renderer)
    assert (event.id, event.action) == ("a", "ok")
    assert not helper.seen[1:], f"the click did not reach the window below: {helper.seen}"


def test_a_click_on_a_button_brings_the_compositors_activation_token_to_the_owner(screen):
    """xdg-activation: the renderer asks sway for a token with the click's serial and sends it in
    its activate, and the owner's action event carries it (the notification bridge's
    ActivationToken signal, docs/NOTIFICATIONS.md)."""
    sway, renderer, helper, app = screen
    f = present_at_rest(sway, renderer, app, ALERT)
    box = (f["x"], f["y"], f["x"] + f["width"], f["y"] + f["height"])
    button = find_colour(sway.screenshot(), box, DESTRUCTIVE)
    assert button, "the destructive button is drawn in its colour"
    click(sway, (button[0] + button[2]) / 2, button[1] + 4)
    event = owner_event(app, "the owner's action event for the click on Delete", is_action, renderer)
    assert (event.id, event.action) == ("a", "ok")
    token = event.raw.get("activationToken")
    assert isinstance(token, str) and token, f"the action event carries sway's activation token: {event.raw}"


def test_a_click_on_a_notification_gives_its_app_activation_token_then_action_invoked(screen, manual, tmp_path):
    """End to end: an app's Notify through presentd-notify (on a private session bus), drawn by the
    renderer on sway, clicked: the app hears ActivationToken(id, sway's token), then ActionInvoked."""
    import os
    from gi.repository import Gio, GLib
    sway, renderer, helper, app = screen
    bridge_path = RENDERER.parents[2] / "notify" / "build" / "presentd-notify"
    bus = subprocess.Popen(["dbus-daemon", "--session", "--print-address=1", "--nofork"], stdout=subprocess.PIPE,
                           stderr=subprocess.DEVNULL, text=True)
    address = bus.stdout.readline().strip()
    runtime = tmp_path / "run"
    runtime.mkdir(mode=0o700)
    bridge = subprocess.Popen([str(bridge_path), "--socket", manual.path], stdin=subprocess.DEVNULL,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                              env=dict(os.environ, DBUS_SESSION_BUS_ADDRESS=address, XDG_RUNTIME_DIR=str(runtime)))
    try:
        conn = Gio.DBusConnection.new_for_address_sync(
            address, Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION,
            None, None)
        signals = []
        conn.signal_subscribe(None, "org.freedesktop.Notifications", None, "/org/freedesktop/Notifications", None,
                              Gio.DBusSignalFlags.NONE, lambda *a: signals.append((a[4], a[5].unpack())))

        def call(method, signature, args):
            return conn.call_sync("org.freedesktop.Notifications" if method != "NameHasOwner" else "org.freedesktop.DBus",
                                  "/org/freedesktop/Notifications" if method != "NameHasOwner" else "/org/freedesktop/DBus",
                                  "org.freedesktop.Notifications" if method != "NameHasOwner" else "org.freedesktop.DBus",
                                  method, GLib.Variant(signature, args), None, Gio.DBusCallFlags.NONE, 20000,
                                  None).unpack()[0]
        wait_until(lambda: call("NameHasOwner", "(s)", ("org.freedesktop.Notifications",)),
                   "presentd-notify owning org.freedesktop.Notifications")
        id = call("Notify", "(susssasa{sv}i)", ("chat", 0, "", "Alice", "Lunch?", ["default", "Open"], {}, 0))
        entry = f"notify.{bridge.pid}.{id}"
        wait_until(lambda: any(e["id"] == entry for e in app.call("stack")["entries"]), f"{entry} on presentd's stack")
        app.call("advance", {"seconds": 1})
        f = rest_frame(app, entry)
        box = (f["x"], f["y"], f["x"] + f["width"], f["y"] + f["height"])
        # "default" is the click on the notification's body: no button is drawn for it.
        def drawn(image):
            pixel = image.getpixel((round(f["x"] + 4), round(f["y"] + f["height"] / 2)))
            assert close(pixel, CARD), f"the card's leading margin: {pixel}"
        wait_pixels(sway, "HEADLESS-1", drawn, "the notification drawn at rest", renderer)
        assert find_colour(sway.screenshot(), box, ACCENT) is None, "the default action was drawn as a button"
        click(sway, f["x"] + f["width"] / 2, f["y"] + f["height"] / 2)

        def heard():
            while GLib.MainContext.default().iteration(False):
                pass
            return [s for s in signals if s[1][0] == id and s[0] != "NotificationClosed"]
        wait_until(lambda: len(heard()) == 2, "ActivationToken and ActionInvoked on the bus",
                   context=lambda: f"signals: {signals}\n{renderer.context()}")
        (first, (_, token)), second = heard()
        assert first == "ActivationToken" and isinstance(token, str) and token, signals
        assert second == ("ActionInvoked", (id, "default")), signals
    finally:
        bridge.terminate()
        bridge.wait(20)
        bus.terminate()
        bus.wait(10)


def test_a_tap_on_the_dimming_dismisses_an_entry_without_actions_and_taps_on_an_absorbing_one_stay(screen):
    sway, renderer, helper, app = screen
    app.subscribe(["lifecycle"])
    present_at_rest(sway, renderer, app, dict(ALERT, id="absorbing"))   # has actions: absorbs taps
    click(sway, 30, 30)
    wait_until(lambda: app.call("stats")["requests"]["byMethod"].get("tap") == 1, "the first tap to reach presentd",
               context=renderer.context)
    # The absorbing dimming took it: it stays, and nothing below heard it. One without actions dismisses.
    assert [e["state"] for e in app.call("stack")["entries"]] == ["presented"]
    app.call("dismiss", {"id": "absorbing"})
    app.call("advance", {"seconds": 1})
    present_at_rest(sway, renderer, app, {"id": "plain", "style": "alert", "content": {"title": "Tap outside"},
                                          "background": {"color": "#000000", "opacity": 0.4}})
    click(sway, 30, 30)
    event = owner_event(app, "willDismiss of the plain alert, tapped outside",
                        lambda e: getattr(e, "event", None) == "willDismiss" and e.id == "plain", renderer)
    assert event.reason == "tap"
    assert not helper.seen[1:], f"neither tap reached the window below: {helper.seen}"


def test_a_click_on_a_forward_dimming_reaches_the_window_below(screen):
    sway, renderer, helper, app = screen
    f = present_at_rest(sway, renderer, app, dict(ALERT, id="fwd", interaction="forward"))
    entry = next(e for e in app.call("stack")["entries"] if e["id"] == "fwd")
    assert entry.get("interaction") == "forward", f"the stack says the dimming forwards: {entry}"
    click(sway, 40, 50)
    line = helper.wait_line("click", "the window below to hear the click through the forward dimming")
    assert line == window_point(sway, 40, 50)
    # The card itself still takes clicks: a click on its margin reaches nothing below.
    click(sway, f["x"] + 6, f["y"] + f["height"] / 2)
    click(sway, 60, 70)
    assert helper.wait_line("click", "the second click through the dimming") == window_point(sway, 60, 70), \
        f"the click on the card did not go below: {helper.seen}"
    assert [e["id"] for e in app.call("stack")["entries"]] == ["fwd"]


SWIPEABLE = {"id": "s", "style": "alert", "dismissOnSwipe": True, "content": {"title": "Swipe me away"},
             "background": {"color": "#000000", "opacity": 0.4}}


def drag(sway, helper, x: float, y: float, path):
    """Press at (x, y), move down through the offsets of path, release."""
    cursor(sway, "set", str(round(x)), str(round(y)))
    cursor(sway, "press", "button1")
    at = 0
    for dy in path:
        helper.move(0, dy - at)
        at = dy
    cursor(sway, "release", "button1")


def test_a_short_drag_springs_back(screen):
    sway, renderer, helper, app = screen
    app.subscribe(["lifecycle"])
    f = present_at_rest(sway, renderer, app, SWIPEABLE)
    # Down 60 points, then back up to 30 as it is let go: a short travel, moving back: it springs back.
    drag(sway, helper, f["x"] + f["width"] / 2, f["y"] + 8, [20, 40, 60, 45, 30])
    event = owner_event(app, "the entry's motion retargeted by the swipe's release",
                        lambda e: getattr(e, "event", None) in ("retargeted", "willDismiss") and e.id == "s", renderer)
    assert event.event == "retargeted", \
        f"a short drag back springs back, not {event.event} ({event.reason}); the renderer sent:\n{renderer.log}"
    swipes = app.call("stats")["requests"]["byMethod"].get("swipe", 0)
    assert swipes >= 3, f"began, changed… and ended reached presentd: {swipes}"
    app.call("advance", {"seconds": 2})
    assert rest_frame(app, "s") == f and [e["state"] for e in app.call("stack")["entries"]] == ["presented"]


def test_a_long_drag_dismisses(screen):
    sway, renderer, helper, app = screen
    app.subscribe(["lifecycle"])
    f = present_at_rest(sway, renderer, app, SWIPEABLE)
    # Past half the way out through the bottom edge (600 − y), still moving down.
    way_out = 600 - f["y"]
    drag(sway, helper, f["x"] + f["width"] / 2, f["y"] + 8, [way_out * k / 10 for k in range(1, 8)])
    event = owner_event(app, "willDismiss for the swipe",
                        lambda e: getattr(e, "event", None) == "willDismiss" and e.id == "s", renderer)
    assert event.reason == "swipe"


FORM = {"id": "form", "style": "alert", "background": {"color": "#000000", "opacity": 0.4},
        "content": {"title": "Sign in",
                    "fields": [{"id": "name", "kind": "text", "placeholder": "Name"},
                               {"id": "pw", "kind": "secure", "placeholder": "Password"}],
                    "actions": [{"id": "go", "title": "Sign in", "role": "default"},
                                {"id": "no", "title": "Cancel", "role": "cancel"}]}}


def focused(app) -> str | None:
    return next(e for e in app.call("stack")["entries"] if e["id"] == "form").get("focusedField")


def test_typed_text_goes_into_the_fields_and_enter_sends_it(screen):
    sway, renderer, helper, app = screen
    present_at_rest(sway, renderer, app, FORM)
    # Not US ASCII: wtype sends the keymap with these keysyms, the renderer reads it with xkbcommon.
    wtype(sway, "Jürgen Ærø")
    wait_until(lambda: focused(app) == "name", "presentd told that the name field has focus (typing focused it)")
    wtype(sway, "-k", "Tab")
    wait_until(lambda: focused(app) == "pw", "the password field focused by Tab")
    wtype(sway, "hunter2")
    wtype(sway, "-k", "BackSpace")
    wtype(sway, "-k", "Return")
    event = owner_event(app, "the owner's action for Enter", is_action, renderer)
    assert (event.action, dict(event.fields)) == ("go", {"name": "Jürgen Ærø", "pw": "hunter"})


def test_tab_and_shift_tab_move_the_focus_through_fields_then_buttons(screen):
    sway, renderer, helper, app = screen
    present_at_rest(sway, renderer, app, FORM)
    # The first field has focus as the dialog appears (test_focus.py); the daemon hears of it once
    # the person moves it or edits.
    assert focused(app) is None, "the focus given as it appeared is not said to the daemon"
    wtype(sway, "-k", "Tab")
    wait_until(lambda: focused(app) == "pw", "Tab: from the first field to the second")
    wtype(sway, "-k", "Tab")   # the first button of the row: Cancel (the cancel action leads)
    wait_until(lambda: focused(app) is None, "Tab: a button, so no field has focus")
    wtype(sway, "-k", "Tab")   # Sign in
    wtype(sway, "-M", "shift", "-k", "Tab", "-m", "shift")   # back to Cancel
    wtype(sway, "-k", "Return")  # Enter on a focused button presses it, not the default action
    event = owner_event(app, "the owner's action for Enter on the focused Cancel button", is_action, renderer)
    assert event.action == "no", f"Enter pressed the focused button: {event}"


def test_keys_after_enter_reach_the_daemon_after_its_activate_that_waits_for_a_token(screen):
    """Enter on a focused button waits for sway's activation token before its activate goes out;
    an Escape typed right after goes out after it, not before (which would cancel instead)."""
    sway, renderer, helper, app = screen
    present_at_rest(sway, renderer, app, ALERT)
    # In one batch (wtype waits for sway between keys): Tab, Tab (Cancel, then Delete), Enter, Escape.
    helper.keys(15, 15, 28, 1)
    event = owner_event(app, "the owner's action for Enter on the focused Delete button", is_action, renderer)
    assert event.action == "ok", f"the Escape typed after Enter overtook its activate: {event}"
    assert event.raw.get("activationToken"), f"the activate waited for sway's token: {event.raw}"


def test_escape_answers_with_the_cancel_action(screen):
    sway, renderer, helper, app = screen
    present_at_rest(sway, renderer, app, ALERT)
    wtype(sway, "-k", "Escape")
    event = owner_event(app, "the owner's action for Escape", is_action, renderer)
    assert (event.id, event.action) == ("a", "no")


def test_in_kiosk_mode_the_window_takes_the_keys(manual, sway_factory, renderer_factory):
    """--kiosk: the fullscreen window, focused as any window is, answers Escape too."""
    if not HELPER.exists():
        pytest.skip(f"{HELPER} is not built (make -C Clients/wayland)")
    sway = sway_factory(width=800, height=600, scale=1)
    helper = Helper(sway)
    renderer = renderer_factory(sway, manual.path, "--kiosk")
    try:
        with Client(manual.path) as app:
            wait_until(lambda: app.call("outputs")["outputs"][0]["container"]["safeArea"]["top"] == 28,
                       "the kiosk window as main", context=renderer.context)
            present_measured(app, ALERT, renderer)
            app.call("advance", {"seconds": 1})
            # Keys go to the focused window once it has drawn the alert (the renderer then knows its top entry).
            f = rest_frame(app, "a")
            def drawn(image):
                box = (f["x"], f["y"], f["x"] + f["width"], f["y"] + f["height"])
                assert find_colour(image, box, DESTRUCTIVE), "no destructive button drawn yet"
            wait_pixels(sway, "HEADLESS-1", drawn, "the alert drawn in the kiosk window", renderer)
            wtype(sway, "-k", "Escape")
            event = owner_event(app, "the owner's action for Escape in the kiosk window", is_action, renderer)
            assert (event.id, event.action) == ("a", "no")
    finally:
        helper.stop()


def test_typed_text_is_drawn_and_a_secure_fields_is_not(screen):
    sway, renderer, helper, app = screen
    f = present_at_rest(sway, renderer, app, FORM)
    wtype(sway, "Typed words")
    wtype(sway, "-k", "Tab")
    wtype(sway, "hunter2")
    # Tab on to the buttons: once presentd hears the field lost focus, every key before it was taken.
    wtype(sway, "-k", "Tab")
    wait_until(lambda: focused(app) is None and app.call("stats")["requests"]["byMethod"].get("focus") == 3,
               "the fields' focus lost to the buttons (the name's, the password's, then none)", context=renderer.context)
    path = f"{sway.dir}/form.png"

    def read():
        box = tuple(round(v) for v in (f["x"], f["y"], f["x"] + f["width"], f["y"] + f["height"]))
        sway.screenshot().crop(box).resize(((box[2] - box[0]) * 2, (box[3] - box[1]) * 2)).save(path)
        text = subprocess.run(["tesseract", path, "-", "--psm", "6"], capture_output=True, text=True, timeout=60).stdout
        assert "Typed" in text and "words" in text and "Password" not in text, f"OCR: {text!r}"
        return text
    text = wait_until(read, "the typed name drawn in its field, and the password field no longer showing its placeholder",
                      timeout=60, context=renderer.context)
    assert "hunter" not in text, f"a secure field draws bullets, never the text: {text!r}"


def test_backspace_held_in_a_field_repeats_at_the_compositors_rate(screen):
    """sway's repeat_info (600 ms, then 25 a second): held for 2 s, BackSpace erases some 36
    characters; without repeat it would erase one of the eleven."""
    sway, renderer, helper, app = screen
    present_at_rest(sway, renderer, app, FORM)
    wtype(sway, "hello world")
    wait_until(lambda: focused(app) == "name", "the name field focused by typing")
    wtype(sway, "-P", "BackSpace", "-s", "2000", "-p", "BackSpace")
    wtype(sway, "-k", "Return")
    event = owner_event(app, "the owner's action for Enter after BackSpace was held", is_action, renderer)
    assert dict(event.fields) == {"name": "", "pw": ""}, f"BackSpace held erased everything: {event.fields}"


# evdev codes of a physical keyboard (linux/input-event-codes.h): the keys that are Y, Z, [, ;, '
# and - on a US keyboard, and z, y, ü, ö, ä and ß on a German one.
KEY_Y, KEY_Z, KEY_LEFTBRACE, KEY_SEMICOLON, KEY_APOSTROPHE, KEY_MINUS, KEY_ENTER = 21, 44, 26, 39, 40, 12, 28


def test_typed_text_with_a_german_layout_is_read_through_that_layout(manual, sway_factory, renderer_factory):
    """The seat's keyboard has the German layout, and its keys (codes, as a physical keyboard
    sends them) reach the owner as German text. sway applies `xkb_layout de` to physical
    keyboards; a virtual keyboard keeps the keymap it uploads (sway 1.7), so the helper's keyboard
    uploads the one xkbcommon compiles for `de`, as sway does from that line."""
    if not HELPER.exists():
        pytest.skip(f"{HELPER} is not built (make -C Clients/wayland)")
    sway = sway_factory(width=800, height=600, scale=1, extra_config="input type:keyboard xkb_layout de\n")
    helper = Helper(sway, "--layout", "de")
    try:
        keyboards = [i for i in sway.msg("-t", "get_inputs") if i["type"] == "keyboard"]
        assert keyboards and all(k.get("xkb_active_layout_name") == "German" for k in keyboards), \
            f"the seat's keyboard has the German layout: {keyboards}"
        renderer = renderer_factory(sway, manual.path)
        with Client(manual.path) as app:
            screen_ready(app, renderer, "main", 800, 600, 1)
            present_at_rest(sway, renderer, app, FORM)
            helper.keys(KEY_Y, KEY_Z, KEY_LEFTBRACE, KEY_SEMICOLON, KEY_APOSTROPHE, KEY_MINUS)
            helper.keys(KEY_ENTER)
            event = owner_event(app, "the owner's action for Enter after the German keys", is_action, renderer)
            assert dict(event.fields) == {"name": "zyüöäß", "pw": ""}, \
                f"the keys read through the German layout, not the US one (yz[;'-): {event.fields}"
    finally:
        helper.stop()
