#!/usr/bin/env python3
"""Runs every example of the README, docs/OPERATING.md and CONTRIBUTING.md (DOCUMENTS) against
a real presentd, so that none fails as written (a newcomer once found some that did), as
Tests/docs/examples.py does for docs/PROTOCOL.md's transcripts.

    python3 Tests/docs/readme_examples.py --check    # run them; exit 1 if any fails
    python3 Tests/docs/readme_examples.py --write    # also rewrite the README's presentd synopsis

What is run:
- a ```sh block: by `bash -e -o pipefail` (every command must succeed), with presentd and
  presentctl first on PATH, against a fresh daemon on a temporary socket that presentctl
  finds as the default ($XDG_RUNTIME_DIR/presentd/presentd.sock); all blocks share one
  temporary working directory, in DOCUMENTS' order, so a later block can use an earlier one's
  files;
- a ```python block: by python3, with Clients/python on its path, against such a daemon;
- a ```json block: a configuration file, checked by `presentd --check-config`.

A block whose first line is `# not run by make test: WHY` is skipped, and counted. An HTML
comment right before a block, `<!-- readme-check: ITEM; ITEM … -->`, says what the test
needs (the README's Tests section lists them): `expect TEXT` (the output must contain it),
`answer ACTION [FIELD=VALUE…]` (a stand-in for the person: each presented entry gets
`activate ACTION` with those fields), `no-daemon`, `until TEXT` (the block leaves something
running: wait until the output has TEXT, then stop it) and, last because it may hold
semicolons, `before COMMANDS` (set-up the example takes for granted, run first).

The synopsis under "Running the daemon" (the code block after the `<!-- presentd synopsis`
comment) is made from `presentd --help`'s options, which come from the settings table:
--check fails when it differs, --write rewrites it.

The binaries are $PRESENTD and $PRESENTCTL, else `swift build --show-bin-path`'s. Standard
library only.
"""

import json, os, re, shutil, signal, socket, subprocess, sys, tempfile, threading, time

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))
README = os.path.join(TOP, "README.md")
# Read in this order, sharing one working directory: OPERATING.md's blocks came from the README.
DOCUMENTS = ["README.md", "docs/OPERATING.md", "CONTRIBUTING.md"]
SKIP = "# not run by make test:"
# Against a hang only, so generous (a loaded machine is slow by seconds); success costs nothing.
PATIENCE = 120


def binaries():
    presentd, presentctl = os.environ.get("PRESENTD"), os.environ.get("PRESENTCTL")
    if not (presentd and presentctl):
        out = subprocess.run(["swift", "build", "--show-bin-path"], cwd=TOP,
                             capture_output=True, text=True, check=True).stdout.strip()
        presentd = presentd or os.path.join(out, "presentd")
        presentctl = presentctl or os.path.join(out, "presentctl")
    for path in (presentd, presentctl):
        if not os.access(path, os.X_OK):
            sys.exit(f"readme_examples.py: {path} is not an executable (build first, or set $PRESENTD and $PRESENTCTL)")
    return presentd, presentctl


# ---------------------------------------------------------------- the README's blocks

class Block:
    def __init__(self, path, line, lang, text, check):
        self.path, self.line, self.lang, self.text, self.check = path, line, lang, text, check
        self.expect, self.answer, self.before, self.until = [], None, "", None
        self.daemon = True
        self.parse(check)

    def parse(self, check):
        rest = check.strip()
        while rest:
            item, _, tail = rest.partition(";")
            item = item.strip()
            word, _, value = item.partition(" ")
            if word == "before":      # the rest of the comment, semicolons and all
                self.before = rest.partition(" ")[2].strip()
                break
            if word == "expect":
                self.expect.append(value.strip())
            elif word == "answer":
                action, *fields = value.split()
                self.answer = (action, dict(f.split("=", 1) for f in fields))
            elif word == "no-daemon":
                self.daemon = False
            elif word == "until":
                self.until = value.strip()
            else:
                raise SystemExit(f"{self.path}:{self.line}: unknown readme-check item {item!r}")
            rest = tail.strip()

    @property
    def skip_reason(self):
        first = self.text.lstrip("\n").split("\n", 1)[0]
        return first[len(SKIP):].strip() if first.startswith(SKIP) else None


FENCE = re.compile(r"^(\s*)```(\w*)\s*$")
CHECK = re.compile(r"^\s*<!-- readme-check:(.*)-->\s*$")


def blocks(path, lines):
    """Every fenced block of the document at `path`, with its line, language, text and the
    readme-check before it."""
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        indent, lang, start = len(m.group(1)), m.group(2), i
        j = i + 1
        while j < len(lines) and not re.match(r"^\s*```\s*$", lines[j]):
            j += 1
        text = "\n".join(l[indent:] if l[:indent].strip() == "" else l for l in lines[i + 1:j])
        k = start - 1
        while k >= 0 and not lines[k].strip():
            k -= 1
        check = CHECK.match(lines[k]).group(1) if k >= 0 and CHECK.match(lines[k]) else ""
        if k >= 0 and not check and re.match(r"^\s*<!--\s*readme", lines[k]):
            raise SystemExit(f"{path}:{k + 1}: a marker that is not `<!-- readme-check: … -->`: {lines[k].strip()}")
        yield Block(path, start + 1, lang, text, check)
        i = j + 1


# ---------------------------------------------------------------- the synopsis

def synopsis(presentd):
    """`presentd [--config FILE] …` from `presentd --help`'s option lines, wrapped at 92."""
    help_text = subprocess.run([presentd, "--help"], capture_output=True, text=True, check=True).stdout
    options = []
    for line in help_text.split("\n"):
        if not line.startswith("  -"):
            continue
        # "  --fps N   frames…", "  -h, --help   print…", "  --output NAME=WxH[@FPS] a screen…":
        # the flags, then a metavariable if the next word is one (capitals: N, PATH, WxH).
        words = line.split()
        flags = []
        while words and words[0].startswith("-"):
            flags.append(words.pop(0).rstrip(","))
        meta = words[0] if words and re.match(r"^[A-Z][A-Za-z]*(?:[=\[@|][A-Za-z@\[\]|=]*)?$", words[0]) else None
        options.append(f"[{'|'.join(flags)}{' ' + meta if meta else ''}]")
    lines, current = [], "presentd"
    for option in options:
        if len(current) + 1 + len(option) > 92:
            lines.append(current)
            current = " " * len("presentd")
        current += " " + option
    return "\n".join(lines + [current])


def synopsis_span(lines):
    """The lines of the synopsis block's body: (first, end)."""
    for i, line in enumerate(lines):
        if line.startswith("<!-- presentd synopsis"):
            if not lines[i + 1].startswith("```"):
                raise SystemExit(f"README.md:{i + 2}: the synopsis comment must be followed by a code block")
            end = i + 2
            while not lines[end].startswith("```"):
                end += 1
            return i + 2, end
    raise SystemExit("README.md: no <!-- presentd synopsis … --> comment")


# ---------------------------------------------------------------- running a block

class Run:
    """The temporary tree the examples share: a working directory, a runtime directory
    (XDG_RUNTIME_DIR) and a directory of commands put first on PATH."""

    def __init__(self, presentd, presentctl):
        self.root = tempfile.mkdtemp(prefix="presentd-readme-")
        self.work = os.path.join(self.root, "work")
        self.bin = os.path.join(self.root, "bin")
        os.makedirs(self.work)
        os.makedirs(self.bin)
        self.presentd = presentd
        for path in (presentd, presentctl):
            os.symlink(path, os.path.join(self.bin, os.path.basename(path)))
        # `python` as a venv would provide it (Debian has only python3), and both the
        # interpreter this runs under (make's $(PYTHON), Debian's, which has Pillow).
        for name in ("python", "python3"):
            os.symlink(sys.executable, os.path.join(self.bin, name))
        self.count = 0

    def environment(self, runtime):
        env = {k: v for k, v in os.environ.items() if k not in ("PRESENTD_SOCKET", "PRESENTD", "PRESENTCTL")}
        env["PATH"] = self.bin + ":" + env.get("PATH", "/usr/bin:/bin")
        env["XDG_RUNTIME_DIR"] = runtime
        env["PYTHONPATH"] = os.path.join(TOP, "Clients", "python", "src")
        return env

    def start_daemon(self, runtime, env):
        log = open(os.path.join(runtime, "presentd.log"), "w+b")
        proc = subprocess.Popen([self.presentd], env=env, stderr=log, stdout=subprocess.DEVNULL)
        path = os.path.join(runtime, "presentd", "presentd.sock")
        deadline = time.monotonic() + PATIENCE
        while True:
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            try:
                s.connect(path)
                s.close()
                return proc, log, path
            except (FileNotFoundError, ConnectionRefusedError):
                s.close()
            if proc.poll() is not None or time.monotonic() > deadline:
                log.seek(0)
                problem = f"presentd did not listen on {path}: {log.read().decode(errors='replace')}"
                proc.kill()
                proc.wait()
                log.close()
                raise RuntimeError(problem)
            time.sleep(0.01)

    def run(self, block):
        """Runs one block; returns None, or what went wrong."""
        self.count += 1
        runtime = os.path.join(self.root, f"run{self.count}")
        os.makedirs(runtime, mode=0o700)
        env = self.environment(runtime)
        daemon = log = responder = None
        try:
            if block.daemon:
                daemon, log, path = self.start_daemon(runtime, env)
                if block.answer:
                    responder = Responder(path, *block.answer)
            return self.execute(block, env, runtime, daemon, log)
        except (RuntimeError, OSError, ValueError) as error:   # the block fails, the others still run
            return f"could not set it up: {error}"
        finally:
            if log:
                log.close()
            if responder:
                responder.stop()
            if daemon:
                daemon.terminate()
                try:
                    daemon.wait(PATIENCE)
                except subprocess.TimeoutExpired:
                    daemon.kill()
                    daemon.wait()

    def execute(self, block, env, runtime, daemon, log):
        if block.lang == "json":
            config = os.path.join(runtime, "example.json")
            with open(config, "w") as f:
                f.write(block.text)
            command = [self.presentd, "--check-config", config]
        elif block.lang == "python":
            command = [sys.executable, "-c", block.text]
        else:
            command = ["bash", "-e", "-o", "pipefail", "-c", block.before + "\n" + block.text, "readme"]
        output_path = os.path.join(runtime, "output")
        with open(output_path, "w+b") as output:
            # A session of its own: what the example leaves running (`watch &`, `--hold`,
            # `presentd &`) is stopped with it, by process group.
            proc = subprocess.Popen(command, cwd=self.work, env=env, stdout=output, stderr=subprocess.STDOUT,
                                    stdin=subprocess.DEVNULL, start_new_session=True)
            try:
                status = proc.wait(PATIENCE)
            except subprocess.TimeoutExpired:
                status = "still running after %d s" % PATIENCE
            deadline = time.monotonic() + PATIENCE
            def text():
                output.seek(0)
                return output.read().decode(errors="replace")
            while block.until and block.until not in text() and time.monotonic() < deadline:
                time.sleep(0.05)
            try:
                os.killpg(proc.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
            out = text()
        problems = []
        if status != 0:
            problems.append(f"exit status {status}")
        for wanted in block.expect + ([block.until] if block.until else []):
            if wanted not in out:
                problems.append(f"the output has no {wanted!r}")
        if not problems:
            return None
        daemon_log = ""
        if log:
            log.seek(0)
            daemon_log = "\npresentd's stderr:\n" + log.read().decode(errors="replace")
        return (f"{'; '.join(problems)}\n--- the block (set-up: {block.before or 'none'}):\n{block.text}\n"
                f"--- its output:\n{out}{daemon_log}")


class Responder:
    """A stand-in for the person at the screen: activates ACTION, with FIELDS, on every
    entry that is presented while the block runs."""

    def __init__(self, path, action, fields):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(path)
        self.action, self.fields = action, fields
        self.file = self.sock.makefile("rb")
        self.send(1, "subscribe", {"topics": ["lifecycle"]})
        # Subscribed before the block starts: otherwise its first dialog could come and
        # go unanswered.
        self.sock.settimeout(PATIENCE)
        while json.loads(self.file.readline() or "{}").get("id") != 1:
            pass
        self.sock.settimeout(None)
        self.next_id = 2
        self.thread = threading.Thread(target=self.loop, daemon=True)
        self.thread.start()

    def send(self, id, method, params):
        self.sock.sendall((json.dumps({"jsonrpc": "2.0", "id": id, "method": method, "params": params}) + "\n").encode())

    def loop(self):
        try:
            for line in self.file:
                message = json.loads(line)
                p = message.get("params", {})
                if message.get("method") == "lifecycle" and p.get("event") == "didPresent":
                    params = {"id": p["id"], "action": self.action}
                    if self.fields:
                        params["fields"] = self.fields
                    self.send(self.next_id, "activate", params)
                    self.next_id += 1
        except (OSError, ValueError):
            pass   # the daemon went away at the end of the block

    def stop(self):
        try:
            self.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.thread.join(PATIENCE)
        self.file.close()
        self.sock.close()


# ---------------------------------------------------------------- main

def main():
    if len(sys.argv) != 2 or sys.argv[1] not in ("--check", "--write"):
        sys.exit(__doc__)
    presentd, presentctl = binaries()
    with open(README) as f:
        lines = f.read().split("\n")
    failed = []
    wanted = synopsis(presentd).split("\n")
    first, end = synopsis_span(lines)
    if lines[first:end] != wanted:
        if sys.argv[1] == "--write":
            lines[first:end] = wanted
            with open(README, "w") as f:
                f.write("\n".join(lines))
            print("readme_examples.py: rewrote the presentd synopsis from presentd --help")
        else:
            failed.append(f"README.md:{first}: the presentd synopsis differs from presentd --help "
                          f"(Tests/docs/readme_examples.py --write rewrites it):\n" + "\n".join(wanted))
    run = Run(presentd, presentctl)
    ran, skipped, shown = 0, [], 0
    started = time.monotonic()
    documents = {"README.md": lines}
    for path in DOCUMENTS[1:]:
        with open(os.path.join(TOP, path)) as f:
            documents[path] = f.read().split("\n")
    try:
        for block in (b for path, text in documents.items() for b in blocks(path, text)):
            where = f"{block.path}:{block.line}"
            if block.lang not in ("sh", "python", "json"):
                if block.check:   # a marker for a block nobody runs would check nothing
                    failed.append(f"{where}: a readme-check marker before a ```{block.lang or 'text'} block, "
                                  "which is not run (only sh, python and json are)")
                shown += 1
                continue
            if block.skip_reason is not None:
                skipped.append(f"{where} ({block.skip_reason})")
                continue
            ran += 1
            problem = run.run(block)
            if problem:
                failed.append(f"{where}: {problem}")
    finally:
        shutil.rmtree(run.root, ignore_errors=True)
    for failure in failed:
        print("FAILED " + failure, file=sys.stderr)
    print(f"readme_examples.py: ran {ran} examples of {', '.join(DOCUMENTS)} ({len(failed)} failed) in "
          f"{time.monotonic() - started:.0f} s; {shown} other block{'' if shown == 1 else 's'} only shown (output, text); "
          f"skipped {len(skipped)}, marked \"{SKIP}\": " + ", ".join(skipped))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
