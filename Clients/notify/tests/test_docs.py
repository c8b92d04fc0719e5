"""The transcripts of docs/NOTIFICATIONS.md, run again: each block between
<!-- transcript NAME --> and <!-- /transcript --> is a shell session ("$ command", then
what it prints) against a fresh bus, presentd on the manual clock and the bridge. "PID" in
a command is the bridge's process id, and the bridge's process id in what is printed reads
"PID". NOTIFY_DOCS_PRINT=1 prints what the commands print now, to update the page."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest

from conftest import BRIDGE

DOC = Path(__file__).resolve().parents[3] / "docs" / "NOTIFICATIONS.md"
MARK = "@@transcript-step@@"


def transcripts() -> list[tuple[str, list[tuple[str, str]]]]:
    text = DOC.read_text()
    found = []
    for name, body in re.findall(r"<!-- transcript (\S+) -->\n```console\n(.*?)```\n<!-- /transcript -->", text, re.S):
        steps: list[tuple[str, list[str]]] = []
        for line in body.splitlines():
            if line.startswith("$ "):
                steps.append((line[2:], []))
            else:
                assert steps, f"transcript {name}: output before the first command"
                steps[-1][1].append(line)
        found.append((name, [(c, "\n".join(o)) for c, o in steps]))
    return found


def test_the_page_has_transcripts():
    assert len(transcripts()) >= 4


@pytest.mark.parametrize("name, steps", transcripts(), ids=[t[0] for t in transcripts()])
def test_transcript(name, steps, bridge, manual, tmp_path):
    env = dict(bridge.env, PRESENTD_SOCKET=manual.path,
               PATH=os.pathsep.join([os.path.dirname(os.environ["PRESENTCTL"]), os.path.dirname(BRIDGE),
                                     os.environ["PATH"]]))
    pid = str(bridge.pid)
    script = "".join(f"{cmd.replace('PID', pid)} 2>&1\necho {MARK}\n" for cmd, _ in steps)
    out = subprocess.run(["bash", "-c", script], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    got = [chunk.strip("\n").replace(pid, "PID") for chunk in out.stdout.split(MARK + "\n")[:-1]]
    if os.environ.get("NOTIFY_DOCS_PRINT"):
        print(f"\n<!-- transcript {name} -->\n```console")
        for (cmd, _), output in zip(steps, got):
            print(f"$ {cmd}" + (f"\n{output}" if output else ""))
        print("```\n<!-- /transcript -->")
    assert len(got) == len(steps), f"transcript {name}: the script stopped early:\n{out.stdout}\n{out.stderr}"
    for (cmd, expected), output in zip(steps, got):
        assert output == expected, f"transcript {name}: $ {cmd}"
