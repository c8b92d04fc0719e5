"""A screen reader's side of the AT-SPI tests, with pyatspi, on the accessibility bus of
$DBUS_SESSION_BUS_ADDRESS (its own process: libatspi keeps one bus per process).

  atspi_probe.py find ROLE          waits for an object of ROLE ("alert", "dialog",
                                    "notification") in presentd-wayland's application; prints
                                    one JSON line: the tree, drawn as accerciser lists it, and
                                    the object (role, name, description, attributes, states,
                                    children with their actions)
  atspi_probe.py gone ROLE          waits until presentd-wayland's application has no object
                                    of ROLE; prints {"gone": true} and the tree
  atspi_probe.py press ROLE NAME    does the push button NAME's "click" in that object; prints
                                    {"pressed": true|false}
  atspi_probe.py listen             prints "listening" once its listeners are registered, then
                                    one JSON line per event: object:announcement,
                                    object:children-changed, object:state-changed:showing,
                                    window:activate

Every wait has a deadline ($PROBE_DEADLINE seconds, default 60), and says on stderr what it
waited for."""

import json
import os
import sys
import time

import pyatspi
from gi.repository import GLib

APP = "presentd-wayland"
DEADLINE = int(os.environ.get("PROBE_DEADLINE", 60))


def application():
    desktop = pyatspi.Registry.getDesktop(0)
    desktop.clearCache()
    for app in desktop:
        if app is not None and app.name == APP:
            return app
    return None


def walk(acc):
    yield acc
    for child in acc:
        if child is not None:
            yield from walk(child)


def attributes(acc) -> dict:
    return dict(a.split(":", 1) for a in acc.getAttributes())


def states(acc) -> list:
    return sorted(pyatspi.stateToString(s) for s in acc.getState().getStates())


def actions(acc) -> list:
    try:
        action = acc.queryAction()
    except NotImplementedError:
        return []
    return [action.getName(i) for i in range(action.nActions)]


def dump(acc, depth=0) -> str:
    """The tree as accerciser shows it: role, name, description, one line each."""
    text = acc.description
    line = f"{'  ' * depth}[{acc.getRoleName()}] {acc.name!r}" + (f" — {text!r}" if text else "")
    live = attributes(acc).get("live")
    extra = [f"live={live}"] if live else []
    extra += [f"actions={actions(acc)}"] if actions(acc) else []
    lines = [line + (f"  ({', '.join(extra)})" if extra else "")]
    for child in acc:
        if child is not None:
            lines.append(dump(child, depth + 1))
    return "\n".join(lines)


def find(role: str):
    """presentd-wayland's object of role, waited for."""
    until = time.monotonic() + DEADLINE
    while time.monotonic() < until:
        app = application()
        if app is not None:
            app.clearCache()
            for acc in walk(app):
                if acc.getRoleName() == role:
                    return app, acc
        time.sleep(0.05)
    names = [a.name for a in pyatspi.Registry.getDesktop(0) if a is not None]
    app = application()
    sys.exit(f"atspi_probe: no {role} in {APP}'s application within {DEADLINE} s (applications on the bus: {names}; "
             f"its tree:\n{dump(app) if app else '(none)'})")


def describe(acc) -> dict:
    return {"role": acc.getRoleName(), "name": acc.name, "description": acc.description,
            "attributes": attributes(acc), "states": states(acc),
            "children": [{"role": c.getRoleName(), "name": c.name, "actions": actions(c), "states": states(c)}
                         for c in acc if c is not None]}


def listen():
    def heard(event):
        source = event.source
        print(json.dumps({"type": event.type, "detail1": event.detail1,
                          "data": event.any_data if isinstance(event.any_data, (str, int)) else
                          (event.any_data.name if event.any_data is not None else None),
                          "role": source.getRoleName() if source else None, "name": source.name if source else None,
                          "attributes": attributes(source) if source else {}}), flush=True)
    # In this order: the tests rely on the announcement listener being registered first.
    for kind in ("object:announcement", "object:children-changed", "object:state-changed:showing", "window:activate"):
        pyatspi.Registry.registerEventListener(heard, kind)
    print("listening", flush=True)
    context = GLib.MainContext.default()
    until = time.monotonic() + 4 * DEADLINE
    while time.monotonic() < until:
        context.iteration(False) or time.sleep(0.01)


def main(argv):
    if argv[1:2] == ["find"]:
        app, acc = find(argv[2])
        print(json.dumps({"tree": dump(app), "found": describe(acc)}))
    elif argv[1:2] == ["gone"]:
        until = time.monotonic() + DEADLINE
        while time.monotonic() < until:
            app = application()
            if app is not None:
                app.clearCache()
                if not any(acc.getRoleName() == argv[2] for acc in walk(app)):
                    print(json.dumps({"gone": True, "tree": dump(app)}))
                    return
            time.sleep(0.05)
        sys.exit(f"atspi_probe: the {argv[2]} still in {APP}'s tree after {DEADLINE} s:\n{dump(app) if app else '(none)'}")
    elif argv[1:2] == ["press"]:
        _, acc = find(argv[2])
        button = next((c for c in acc if c is not None and c.getRoleName() == "push button" and c.name == argv[3]), None)
        if button is None:
            sys.exit(f"atspi_probe: no push button {argv[3]!r} in the {argv[2]}: {describe(acc)}")
        action = button.queryAction()
        click = next(i for i in range(action.nActions) if action.getName(i) == "click")
        print(json.dumps({"pressed": bool(action.doAction(click))}))
    elif argv[1:2] == ["listen"]:
        listen()
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv)
