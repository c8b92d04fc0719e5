#!/usr/bin/env python3
"""Package.swift's targets depend only downwards, in the layer order its header comment gives.

The header comment ("Layers, bottom to top") names one layer a line, several names on a line
sharing a layer. A target of Sources/ may depend only on targets of lower layers and on system
libraries (.systemLibrary), and its Swift files may import only what it depends on (SwiftPM
lets a module see more than it declares when another target of the build brings it in).
Targets under Tests/ (tests, the fuzzer, test support) are above every layer and not checked.

Run from anywhere: `python3 Tests/checks/layers.py` (make test-fast runs it). Exit status 1,
with one line for each edge that goes upward or sideways, each target missing from the
header, and each import a target does not declare."""

from __future__ import annotations

import re
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
PACKAGE = REPO / "Package.swift"


def header_layers(text: str) -> dict[str, int]:
    """{target: layer index, 0 at the bottom} from the comment block after 'Layers, bottom to top'."""
    layers: dict[str, int] = {}
    lines = text.splitlines()
    start = next((i for i, line in enumerate(lines) if "Layers, bottom to top" in line), None)
    if start is None:
        sys.exit(f"layers: {PACKAGE.name} has no 'Layers, bottom to top' comment")
    for line in lines[start + 1:]:
        if not line.startswith("//"):
            break
        # "//   Name[, Name]   description": a layer line; "//          more text": a continuation.
        m = re.match(r"//\s{1,4}([A-Za-z][A-Za-z0-9]*(?:,\s*[A-Za-z][A-Za-z0-9]*)*)\s+\S", line)
        if m:
            level = len(set(layers.values()))
            for name in re.split(r",\s*", m.group(1)):
                layers[name] = level
    return layers


def _call_end(text: str, open_paren: int) -> int:
    """The index of the parenthesis closing the one at `open_paren` (strings skipped)."""
    depth, i, in_string = 0, open_paren, False
    while i < len(text):
        c = text[i]
        if in_string:
            if c == "\\":
                i += 1
            elif c == '"':
                in_string = False
        elif c == '"':
            in_string = True
        elif c in "([":
            depth += 1
        elif c in ")]":
            depth -= 1
            if depth == 0:
                return i
        i += 1
    raise ValueError("unbalanced parentheses in Package.swift")


def targets(text: str) -> dict[str, dict]:
    """{name: {kind, path, dependencies}} for every target declaration in Package.swift."""
    found: dict[str, dict] = {}
    for m in re.finditer(r"\.(target|executableTarget|testTarget|systemLibrary)\(", text):
        body = text[m.end():_call_end(text, m.end() - 1)]
        name = re.search(r'name:\s*"([^"]+)"', body)
        if not name:
            continue
        path = re.search(r'\bpath:\s*"([^"]+)"', body)
        deps: list[str] = []
        d = re.search(r"\bdependencies:\s*\[", body)
        if d:
            end = _call_end(body, d.end() - 1)
            listed = body[d.end():end]
            # Strings, and .target(name:) / .byName(name:); .product(...) is another package's.
            listed = re.sub(r"\.product\([^)]*\)", "", listed)
            deps = re.findall(r'"([^"]+)"', listed)
        kind = m.group(1)
        default = "Tests" if kind == "testTarget" else "Sources"
        found[name.group(1)] = {"kind": kind, "path": path.group(1) if path else f"{default}/{name.group(1)}",
                                "dependencies": deps}
    return found


def imports(directory: Path) -> dict[str, str]:
    """{module: 'file:line'} for the first import of each module in a target's Swift files."""
    seen: dict[str, str] = {}
    for swift in sorted(directory.rglob("*.swift")):
        for n, line in enumerate(swift.read_text().splitlines(), 1):
            m = re.match(r"\s*(?:@\w+\s+)*import\s+(?:(?:struct|class|enum|func|var|let|protocol)\s+)?(\w+)", line)
            if m and m.group(1) not in seen:
                seen[m.group(1)] = f"{swift.relative_to(REPO)}:{n}"
    return seen


def main() -> int:
    text = PACKAGE.read_text()
    layers = header_layers(text)
    declared = targets(text)
    problems: list[str] = []
    for name, t in declared.items():
        if t["kind"] == "systemLibrary" or t["path"].startswith("Tests/"):
            continue
        if name not in layers:
            problems.append(f"{name} is a target of {t['path']} but not in Package.swift's layer list: "
                            "add it to the header comment at its layer")
            continue
        for dep in t["dependencies"]:
            if dep not in declared or declared[dep]["kind"] == "systemLibrary":
                continue
            if dep not in layers:
                continue  # reported as missing from the list on its own line
            if layers[dep] >= layers[name]:
                where = "the same layer as" if layers[dep] == layers[name] else "above"
                problems.append(f"{name} → {dep} goes {'sideways' if where.startswith('the') else 'upward'}: "
                                f"the header puts {dep} {where} {name} (layer {layers[dep]} vs {layers[name]}, "
                                "0 at the bottom)")
        directory = REPO / t["path"]
        for module, where in imports(directory).items():
            if module in declared and module != name and module not in t["dependencies"]:
                problems.append(f"{where} imports {module}, which {name} does not depend on in Package.swift")
    for name in layers:
        if name not in declared:
            problems.append(f"the header's layer list names {name}, which Package.swift does not declare")
    for p in problems:
        print(f"layers: {p}")
    if not problems:
        print(f"layers: ok ({len(layers)} targets in {len(set(layers.values()))} layers, every dependency downward)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
