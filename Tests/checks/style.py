#!/usr/bin/env python3
"""Checks the tracked files against .editorconfig: the rules live there, this only enforces them.

For each file that `git ls-files` lists, the .editorconfig sections that match it are applied in
order (a later section overrides an earlier one, `unset` drops a property), and then:

  charset = utf-8                 the file decodes as UTF-8
  end_of_line = lf                no carriage returns
  insert_final_newline = true     a non-empty file ends with a newline
  trim_trailing_whitespace = true no line ends in a space or a tab
  indent_style = space            no tab in a line's indentation
  indent_style = tab              indentation is tabs, then any spaces that align; a line may
                                  start with spaces only after one ending in a backslash
  max_line_length = N             no line longer than N characters (code points)

The exceptions (generated files, the fuzz corpus, vendored XML) are sections of .editorconfig too,
with their reasons. Binary files (a NUL byte in them) are skipped.

Run from anywhere: `python3 Tests/checks/style.py`. Prints `path:line: what` for each finding and
exits 1 if there is one, 0 if the tree is clean.
"""

import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def glob_to_regex(glob):
    """An EditorConfig glob as a regular expression over a path relative to the root."""
    if "/" in glob:
        glob = glob.lstrip("/")
        prefix = ""
    else:
        prefix = "(?:.*/)?"   # a glob without a slash matches a file's name at any depth
    out, i, depth = [], 0, 0
    while i < len(glob):
        c = glob[i]
        if c == "*":
            if glob.startswith("**", i):
                out.append(".*")
                i += 2
                continue
            out.append("[^/]*")
        elif c == "?":
            out.append("[^/]")
        elif c == "[":
            end = glob.find("]", i + 1)
            if end < 0:
                out.append(re.escape(c))
            else:
                body = glob[i + 1:end]
                if body.startswith("!"):
                    body = "^" + body[1:]
                out.append("[" + body.replace("\\", "\\\\") + "]")
                i = end + 1
                continue
        elif c == "{":
            depth += 1
            out.append("(?:")
        elif c == "}" and depth:
            depth -= 1
            out.append(")")
        elif c == "," and depth:
            out.append("|")
        elif c == "\\" and i + 1 < len(glob):
            out.append(re.escape(glob[i + 1]))
            i += 1
        else:
            out.append(re.escape(c))
        i += 1
    return re.compile(prefix + "".join(out) + r"\Z")


def read_editorconfig(path):
    """[(compiled glob, section name, {property: value})] in the file's order."""
    sections, current = [], None
    with open(path, encoding="utf-8") as f:
        for raw in f:
            line = raw.strip()
            if not line or line[0] in "#;":
                continue
            if line.startswith("[") and line.endswith("]"):
                name = line[1:-1]
                current = {}
                sections.append((glob_to_regex(name), name, current))
            elif "=" in line and current is not None:
                key, value = (part.strip() for part in line.split("=", 1))
                current[key.lower()] = value.lower() if key.lower() != "max_line_length" else value
    return sections


def properties(sections, path):
    """The properties that apply to path, with the section each came from."""
    props = {}
    for regex, name, values in sections:
        if regex.match(path):
            for key, value in values.items():
                if value == "unset":
                    props.pop(key, None)
                else:
                    props[key] = (value, name)
    return props


def check_file(path, props, report):
    try:
        data = open(os.path.join(ROOT, path), "rb").read()
    except (IsADirectoryError, FileNotFoundError):
        return   # a submodule, or a file deleted in the work tree but not yet in the index
    if b"\0" in data or not data:
        return
    if props.get("charset", ("",))[0] == "utf-8":
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as error:
            line = data[:error.start].count(b"\n") + 1
            report(path, line, "not UTF-8 (charset = utf-8)")
            return
    else:
        text = data.decode("utf-8", "replace")
    lines = text.split("\n")
    if props.get("insert_final_newline", ("",))[0] == "true" and not text.endswith("\n"):
        report(path, len(lines), "no newline at the end of the file (insert_final_newline = true)")
    if text.endswith("\n"):
        lines.pop()
    eol = props.get("end_of_line", ("",))[0] == "lf"
    trim = props.get("trim_trailing_whitespace", ("",))[0] == "true"
    style = props.get("indent_style", ("",))[0]
    limit, limit_from = props.get("max_line_length", ("off", ""))
    limit = int(limit) if limit.isdigit() else None
    continued = False
    for number, line in enumerate(lines, 1):
        if eol and "\r" in line:
            report(path, number, "carriage return (end_of_line = lf)")
            line = line.replace("\r", "")
        if trim and line != line.rstrip(" \t"):
            report(path, number, "trailing whitespace (trim_trailing_whitespace = true)")
        indent = line[:len(line) - len(line.lstrip(" \t"))]
        if style == "space" and "\t" in indent:
            report(path, number, "tab in the indentation (indent_style = space)")
        elif style == "tab" and (" \t" in indent or (indent.startswith(" ") and not continued)):
            report(path, number, "space before a tab in the indentation (indent_style = tab)"
                   if " \t" in indent else "indented with spaces (indent_style = tab)")
        if limit is not None and len(line) > limit:
            report(path, number, f"{len(line)} characters, over {limit} (max_line_length of [{limit_from}])")
        continued = line.endswith("\\")


def main():
    sections = read_editorconfig(os.path.join(ROOT, ".editorconfig"))
    files = subprocess.run(["git", "-C", ROOT, "ls-files", "-z"], check=True,
                           capture_output=True).stdout.decode("utf-8").split("\0")
    findings = []

    def report(path, line, what):
        findings.append(f"{path}:{line}: {what}")

    checked = 0
    for path in filter(None, files):
        if os.path.islink(os.path.join(ROOT, path)):
            continue
        check_file(path, properties(sections, path), report)
        checked += 1
    for finding in findings:
        print(finding)
    if findings:
        print(f"style: {len(findings)} findings in {checked} files; the rules are in .editorconfig",
              file=sys.stderr)
        return 1
    print(f"style: {checked} files keep .editorconfig")
    return 0


if __name__ == "__main__":
    sys.exit(main())
