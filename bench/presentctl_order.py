#!/usr/bin/env python3
"""Writes bench/presentctl/startup.order: the functions and the data presentctl's common
commands touch, which the release link (Package.swift) places side by side.

A short-lived process pays a page fault for every 64 KiB window of text it runs code in
(the kernel maps the pages around a fault with it) and for every page of data it touches
(twice for a zeroed page it reads, then writes). So what every command touches (the C
library's and the Swift runtime's start-up, argument scanning, connecting, writing the
request, reading and printing the reply) goes side by side at the front of each section
instead of scattered over 6 MiB of text and 1.5 MiB of data.

How: a release presentd on a temporary socket, and each command below run twice under
valgrind: callgrind names every function it executed, lackey every address it read or
wrote, which the binary's symbol table turns into the data symbols around them. Names as
linked, each once, what more of the commands touch first: functions, then data (the
linker orders each section by itself), variables larger than a page last.

valgrind's CPU lacks AVX-512, so the C library's string functions it reports (say
__memmove_avx_unaligned_erms, or strlen for the ones it replaces with its own) bring their
AVX-512 variants along, which such a CPU picks. The Swift standard library's own code and
data are each one large section of libswiftCore.a's Swift.o (1.6 MiB of text), which no
order can split: their symbols are left out, so that those sections go after the ones
listed instead of between them.

Run by `make presentctl-order` after a change to what every command runs; a stale list
only leaves the new code and data where the linker puts them (lld ignores names it no
longer finds). Standard library only; needs valgrind.
"""

import argparse
import bisect
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

# The common paths: a reply printed, a command with options, a daemon error, a usage error.
COMMANDS = [
    ["ping"],
    ["hello"],
    ["stack"],
    ["present", "--content", "order-probe", "--dry-run"],
    ["dismiss", "no-such-entry"],
    ["no-such-command"],
]

# ifunc variants of the C library's string functions: the family, and the instruction set.
VARIANT = re.compile(r"^(__\w+?)_(sse2|ssse3|sse4_\d|avx|avx2|evex|evex512|avx512)(_|$)")
AVX512 = ("evex", "evex512", "avx512")

# An object's sections that hold all its functions or all its data, as opposed to one
# section per function or variable (.text.NAME, .bss.NAME).
WHOLE_SECTIONS = {".text", ".data", ".bss", ".rodata", ".data.rel.ro", ".data.rel", ".data.rel.local",
                  ".data.rel.ro.local"}


def run(*command):
    return subprocess.run(command, capture_output=True, text=True, check=True).stdout


def unsplittable(swiftc, scratch):
    """The symbols in the whole-object sections of the static Swift standard library's Swift.o."""
    resources = json.loads(run(swiftc, "-print-target-info"))["paths"]["runtimeResourcePath"]   # .../usr/lib/swift
    archive = os.path.join(os.path.dirname(resources), "swift_static", "linux", "libswiftCore.a")
    member = os.path.join(scratch, "Swift.o")
    with open(member, "wb") as f:
        subprocess.run(["ar", "p", archive, "Swift.o"], stdout=f, check=True)
    whole = set()
    for line in run("readelf", "-SW", member).splitlines():
        m = re.match(r"\s*\[\s*(\d+)\]\s+(\S+)\s", line)
        if m and m.group(2) in WHOLE_SECTIONS:
            whole.add(m.group(1))
    names = set()
    for line in run("readelf", "-sW", member).splitlines():
        fields = line.split()
        if len(fields) >= 8 and fields[6] in whole:
            names.add(fields[7])
    return names


class DataSymbols:
    """The binary's data symbols, to name the variable an address falls in."""

    def __init__(self, binary):
        self.ranges = []   # the allocated sections that hold no code
        for line in run("readelf", "-SW", binary).splitlines():
            m = re.match(r"\s*\[\s*\d+\]\s+\S+\s+\S+\s+([0-9a-f]+)\s+[0-9a-f]+\s+([0-9a-f]+)\s+\S+\s+(\S+)", line)
            if m and "A" in m.group(3) and "X" not in m.group(3) and int(m.group(1), 16):
                self.ranges.append((int(m.group(1), 16), int(m.group(1), 16) + int(m.group(2), 16)))
        self.symbols = []
        for line in run("nm", "-n", "-S", "--defined-only", binary).splitlines():
            fields = line.split()
            if len(fields) == 4 and fields[2] in "bBdDrRgGsSvV" and int(fields[1], 16):
                self.symbols.append((int(fields[0], 16), int(fields[1], 16), fields[3]))
        self.symbols.sort()
        self.starts = [s[0] for s in self.symbols]

    def name(self, address):
        if not any(lo <= address < hi for lo, hi in self.ranges):
            return None
        i = bisect.bisect_right(self.starts, address) - 1
        if i >= 0 and self.symbols[i][0] <= address < self.symbols[i][0] + self.symbols[i][1]:
            return self.symbols[i][2]
        return None


def under_valgrind(tool, presentctl, socket, command, out, *options):
    subprocess.run(["valgrind", f"--tool={tool}", *options, presentctl, "--socket", socket, *command],
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False, timeout=300)
    with open(out, errors="replace") as f:
        return f.read().splitlines()


def executed_functions(presentctl, socket, command, scratch):
    out = os.path.join(scratch, "callgrind.out")
    names = []
    for line in under_valgrind("callgrind", presentctl, socket, command, out, "--demangle=no",
                               f"--callgrind-out-file={out}"):
        m = re.match(r"^c?fn=\(\d+\) (.+)$", line)
        if m:
            # callgrind marks recursion levels with 'N; addresses are functions without a name.
            name = re.sub(r"'\d+$", "", m.group(1))
            if not name.startswith("0x") and name != "(below main)":
                names.append(name)
    return names


def touched_data(presentctl, socket, command, scratch, data):
    out = os.path.join(scratch, "lackey.out")
    names = {}
    for line in under_valgrind("lackey", presentctl, socket, command, out, "--trace-mem=yes", f"--log-file={out}"):
        m = re.match(r"^ [LSM] ([0-9a-f]+),", line)
        if m and (name := data.name(int(m.group(1), 16))):
            names.setdefault(name, None)
    return list(names)


def start_presentd(presentd, scratch):
    socket_path = os.path.join(scratch, "presentd.sock")
    config = os.path.join(scratch, "presentd.json")
    with open(config, "w") as f:
        f.write("{}\n")
    process = subprocess.Popen([presentd, "--socket", socket_path, "--config", config, "--log-level", "warning"],
                               stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if process.poll() is not None:
            sys.exit(f"presentctl_order.py: presentd exited with status {process.returncode} at start")
        answer = subprocess.run([os.path.join(os.path.dirname(presentd), "presentctl"), "--socket", socket_path, "ping"],
                                capture_output=True, timeout=10)
        if answer.returncode == 0:
            return process, socket_path
        time.sleep(0.05)
    process.kill()
    sys.exit(f"presentctl_order.py: presentd did not answer ping on {socket_path} within 30 s")


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--bin", required=True, help="the release build's directory (presentd and presentctl)")
    p.add_argument("--swiftc", default="swiftc", help="the compiler that built it (to find its static standard library)")
    p.add_argument("--out", default=os.path.join(os.path.dirname(__file__), "presentctl", "startup.order"))
    args = p.parse_args()
    if not shutil.which("valgrind"):
        sys.exit("presentctl_order.py: needs valgrind (apt-get install valgrind)")
    presentctl = os.path.join(args.bin, "presentctl")
    data = DataSymbols(presentctl)
    scratch = tempfile.mkdtemp(prefix="presentctl-order-")
    # valgrind runs a copy without debug information (it gives up on some DWARF 5 that clang
    # writes); the code, the data and the symbols stay where they are.
    profiled = os.path.join(scratch, "presentctl")
    subprocess.run(["objcopy", "--strip-debug", presentctl, profiled], check=True)
    daemon, socket_path = start_presentd(os.path.join(args.bin, "presentd"), scratch)
    try:
        function_sets, variable_lists = [], []
        for command in COMMANDS:
            function_sets.append(set(executed_functions(profiled, socket_path, command, scratch)))
            variable_lists.append(touched_data(profiled, socket_path, command, scratch, data))
        left_out = unsplittable(args.swiftc, scratch)
    finally:
        daemon.terminate()
        daemon.wait(10)
        shutil.rmtree(scratch, ignore_errors=True)
    # What more commands touch goes first: the start-up every command runs, then the client's
    # path every command that talks to the daemon runs, then what fewer commands need. So each
    # command finds what it touches near the front, in as few pages as the lists allow.
    # Functions by name (callgrind's own order changes from run to run), data in the order the
    # first command touched it.
    def by_use(lists, key):
        uses, first = {}, {}
        for i, names in enumerate(lists):
            for name in names:
                uses[name] = uses.get(name, 0) + 1
                first.setdefault(name, (i, key(names, name)))
        return {name: None for name in sorted(uses, key=lambda name: (-uses[name], first[name]))}
    functions = by_use(function_sets, lambda names, name: name)
    variables = by_use(variable_lists, lambda names, name: names.index(name))
    if "presentctl_main" not in functions:
        sys.exit("presentctl_order.py: callgrind saw no presentctl_main: is --bin a release build?")
    # A family is named by a variant valgrind ran, by the plain name of the string functions
    # valgrind replaces with its own (strlen for every __strlen_*), or by its resolver.
    families = ({m.group(1) for name in functions if (m := VARIANT.match(name))} | {"__" + name for name in functions}
                | {"__" + name.removesuffix("_ifunc") for name in functions if name.endswith("_ifunc")})
    for line in run("nm", "--defined-only", presentctl).splitlines():
        name = line.split()[-1]
        m = VARIANT.match(name)
        if m and m.group(1) in families and m.group(2) in AVX512:
            functions.setdefault(name, None)
    # A variable larger than a page goes after the small ones: touched at one end (say the
    # Swift runtime's first 64 KiB pool of metadata), it would spread them over its pages.
    size = {name: n for _, n, name in data.symbols}
    variables = sorted(variables, key=lambda name: size.get(name, 0) > 4096)
    listed = [name for name in [*functions, *variables] if name not in left_out]
    with open(args.out, "w") as f:
        f.write("# The functions, then the data, presentctl's common commands touch, placed side by side\n"
                "# by the release link (Package.swift). Written by `make presentctl-order`\n"
                "# (bench/presentctl_order.py): do not edit.\n")
        for name in listed:
            f.write(name + "\n")
    print(f"{args.out}: {len(functions)} functions and {len(variables)} data symbols touched by {len(COMMANDS)} "
          f"commands, {len(functions) + len(variables) - len(listed)} of them in Swift.o's whole sections left out")


if __name__ == "__main__":
    main()
