"""presentd-wayland's figures (make bench-wayland): for an alert presenting and dismissing on the
real clock at 60 Hz, on a headless sway at 1920x1080 scale 1 and 3840x2160 scale 2, the CPU per
drawn frame, the p50 and p99 time to draw one (paint and hand over, from --stats), and the
renderer's RSS and private memory with the alert at rest. Prints a Markdown table."""

from __future__ import annotations

import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.join(HERE, "tests"), os.path.join(HERE, "../python/src")]

from conftest import Renderer, Sway  # noqa: E402
from presentd import Client  # noqa: E402
from presentd.daemon import Daemon, wait_until  # noqa: E402

CYCLES = 5
ALERT = {"title": "Delete file?", "message": "It cannot be undone",
         "actions": [{"id": "ok", "title": "Delete", "role": "destructive"}, {"id": "no", "title": "Cancel", "role": "cancel"}]}


def memory(pid: int) -> tuple[float, float]:
    """RSS and private (clean + dirty) memory, MiB."""
    fields = {}
    with open(f"/proc/{pid}/smaps_rollup") as f:
        for line in f:
            parts = line.split()
            if len(parts) >= 2 and parts[0].endswith(":") and parts[1].isdigit():
                fields[parts[0][:-1]] = int(parts[1])
    return fields["Rss"] / 1024, (fields["Private_Clean"] + fields["Private_Dirty"]) / 1024


def run(width: int, height: int, scale: int) -> dict:
    with Daemon() as daemon, Sway(width=width, height=height, scale=scale) as sway:
        renderer = Renderer(sway, daemon.path, "--stats")
        try:
            with Client(daemon.path) as app:
                wait_until(lambda: app.call("outputs")["outputs"][0]["container"]["width"] == width / scale,
                           "the renderer to set main", context=renderer.context)
                rss = private = 0.0
                for i in range(CYCLES):
                    id = app.call("present", {"style": "alert", "content": ALERT})["id"]
                    wait_until(lambda: all(e["state"] == "presented" for e in app.call("stack")["entries"]),
                               "the alert to be presented")
                    if i == CYCLES - 1:
                        rss, private = memory(renderer.process.pid)
                    app.call("dismiss", {"id": id})
                    wait_until(lambda: not app.call("stack")["entries"], "the alert to leave")
            renderer.stop()
            line = next(l for l in renderer.log.splitlines() if l.startswith("stats:"))
        finally:
            renderer.stop()
    numbers = dict(re.findall(r"(frames|p50|p99|cpu per frame) ([\d.]+)", line))
    return {"size": f"{width}×{height} @{scale}", "frames": int(numbers["frames"]), "cpu": float(numbers["cpu per frame"]),
            "p50": float(numbers["p50"]), "p99": float(numbers["p99"]), "rss": rss, "private": private}


def main() -> None:
    rows = [run(1920, 1080, 1), run(3840, 2160, 2)]
    print(f"{CYCLES} alert transitions in and out (0.4 s each, the default), real clock, 60 Hz output:\n")
    print("| output | frames drawn | CPU per frame | draw p50 | draw p99 | RSS at rest | private at rest |")
    print("|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['size']} | {r['frames']} | {r['cpu']:.2f} ms | {r['p50']:.2f} ms | {r['p99']:.2f} ms | "
              f"{r['rss']:.1f} MiB | {r['private']:.1f} MiB |")


if __name__ == "__main__":
    main()
