#!/usr/bin/env python3
"""Writes Sources/presentctl/startup.order: the functions presentctl runs in its common
commands, which the release link (Package.swift) places together at the front of the text.

A short-lived process pays a page fault for every 64 KiB window of text it touches (the
kernel maps the pages around a fault with it), so the functions every command runs (the
C library's and the Swift runtime's start-up, argument scanning, connecting, writing the
request, reading and printing the reply) are placed side by side instead of scattered over
the whole text.

How: a release presentd on a temporary socket, and each command below run once under
valgrind's callgrind, which names every function it executed; the names (as linked, not
demangled) in the order the commands come, each once. valgrind's CPU lacks AVX-512, so the C
library's string functions it reports (say __memmove_avx_unaligned_erms, or strlen for the
ones it replaces with its own) bring their AVX-512 variants along, which such a CPU picks.
The Swift standard library's own code is one 1.6 MiB section of libswiftCore.a's Swift.o,
which no order can split: its functions are left out, so that the section goes after the
ones listed instead of between them.

Run by `make presentctl-order` after a change to what every command runs; a stale list
only leaves the new functions where the linker puts them (lld ignores names it no longer
finds). Standard library only; needs valgrind.
"""

import argparse
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


def swift_stdlib_code(swiftc, scratch):
    """The symbols in the one text section of the static Swift standard library's Swift.o."""
    info = json.loads(subprocess.run([swiftc, "-print-target-info"], capture_output=True, text=True,
                                     check=True).stdout)
    resources = info["paths"]["runtimeResourcePath"]   # .../usr/lib/swift
    archive = os.path.join(os.path.dirname(resources), "swift_static", "linux", "libswiftCore.a")
    member = os.path.join(scratch, "Swift.o")
    with open(member, "wb") as f:
        subprocess.run(["ar", "p", archive, "Swift.o"], stdout=f, check=True)
    sections = subprocess.run(["readelf", "-SW", member], capture_output=True, text=True, check=True).stdout
    text = next(m.group(1) for line in sections.splitlines()
                if (m := re.match(r"\s*\[\s*(\d+)\]\s+\.text\s", line)))
    names = set()
    for line in subprocess.run(["readelf", "-sW", member], capture_output=True, text=True, check=True).stdout.splitlines():
        fields = line.split()
        if len(fields) >= 8 and fields[6] == text:
            names.add(fields[7])
    return names


def executed_functions(presentctl, socket, command, scratch):
    out = os.path.join(scratch, "callgrind.out")
    subprocess.run(["valgrind", "--tool=callgrind", "--demangle=no", f"--callgrind-out-file={out}",
                    presentctl, "--socket", socket, *command],
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False, timeout=120)
    names = []
    with open(out) as f:
        for line in f:
            m = re.match(r"^c?fn=\(\d+\) (.+)$", line.rstrip("\n"))
            if m:
                # callgrind marks recursion levels with 'N; addresses are functions without a name.
                name = re.sub(r"'\d+$", "", m.group(1))
                if not name.startswith("0x") and name != "(below main)":
                    names.append(name)
    return names


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
    p.add_argument("--out", default=os.path.join(os.path.dirname(__file__), "..", "Sources", "presentctl", "startup.order"))
    args = p.parse_args()
    if not shutil.which("valgrind"):
        sys.exit("presentctl_order.py: needs valgrind (apt-get install valgrind)")
    presentctl = os.path.join(args.bin, "presentctl")
    scratch = tempfile.mkdtemp(prefix="presentctl-order-")
    daemon, socket_path = start_presentd(os.path.join(args.bin, "presentd"), scratch)
    try:
        ordered = {}
        for command in COMMANDS:
            for name in executed_functions(presentctl, socket_path, command, scratch):
                ordered.setdefault(name, None)
        unsplittable = swift_stdlib_code(args.swiftc, scratch)
    finally:
        daemon.terminate()
        daemon.wait(10)
        shutil.rmtree(scratch, ignore_errors=True)
    if "presentctl_main" not in ordered:
        sys.exit("presentctl_order.py: callgrind saw no presentctl_main: is --bin a release build?")
    symbols = subprocess.run(["nm", "--defined-only", presentctl], capture_output=True, text=True, check=True).stdout
    defined = [line.split()[-1] for line in symbols.splitlines() if len(line.split()) == 3]
    # A family is named by a variant valgrind ran, or by the plain name of the string
    # functions valgrind replaces with its own (strlen for every __strlen_*).
    families = ({m.group(1) for name in ordered if (m := VARIANT.match(name))} | {"__" + name for name in ordered}
                | {"__" + name.removesuffix("_ifunc") for name in ordered if name.endswith("_ifunc")})
    for name in defined:
        m = VARIANT.match(name)
        if m and m.group(1) in families and m.group(2) in AVX512:
            ordered.setdefault(name, None)
    ordered = [name for name in ordered if name not in unsplittable]
    with open(args.out, "w") as f:
        f.write("# The functions presentctl's common commands run, placed together at the front of the\n"
                "# text by the release link (Package.swift). Written by `make presentctl-order`\n"
                "# (bench/presentctl_order.py): do not edit.\n")
        for name in ordered:
            f.write(name + "\n")
    print(f"{args.out}: {len(ordered)} functions from {len(COMMANDS)} commands")


if __name__ == "__main__":
    main()
