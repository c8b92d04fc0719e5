#!/usr/bin/env python3
"""Floods presentd the way a hostile or broken client would, for a bounded time.

usage: flood.py SOCKET MODE SECONDS [N]

  churn  N workers (default 4) connect and hang up as fast as they can; every other
         connection says hello first
  blast  one connection pipelines requests as fast as it can and reads the replies
  mute   one connection pipelines `stack` requests and never reads a reply
  hold   opens N connections (default 100) and keeps them open; counts how many the
         daemon accepted (answered hello) and how many it refused (closing notice or EOF)

Prints one JSON object of counts on stdout when done. Standard library only.
"""

import json
import os
import socket
import sys
import time


def connect(path):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect(path)
    return s


def line(method, ident=None, params=None):
    message = {"jsonrpc": "2.0", "method": method}
    if ident is not None:
        message["id"] = ident
    if params is not None:
        message["params"] = params
    return (json.dumps(message, separators=(",", ":")) + "\n").encode()


HELLO = line("hello", 1, {"client": "flood", "protocol": 1})


def churn(path, seconds, workers):
    deadline = time.monotonic() + seconds
    reader, writer = os.pipe()
    children = []
    for _ in range(workers):
        pid = os.fork()
        if pid == 0:
            os.close(reader)
            count = 0
            while time.monotonic() < deadline:
                try:
                    s = connect(path)
                    if count % 2 == 0:
                        s.sendall(HELLO)
                    s.close()
                    count += 1
                except OSError:
                    time.sleep(0.001)
            os.write(writer, b"%d\n" % count)
            os._exit(0)
        children.append(pid)
    os.close(writer)
    with os.fdopen(reader) as counts:
        total = sum(int(text) for text in counts.read().split())
    for pid in children:
        os.waitpid(pid, 0)
    return {"connections": total}


def blast(path, seconds, read):
    s = connect(path)
    s.setblocking(False)
    # A reader mixes cheap and dearer requests; a mute client asks for the whole stack,
    # the biggest reply, to fill its queue fast.
    batch = b"".join(line("ping" if read and i % 4 else "stack", i) for i in range(200))
    sent = answered = 0
    pending = b""
    closed = False
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and not closed:
        if len(pending) < 1 << 16:
            pending += batch
        try:
            n = s.send(pending)
            sent += pending[:n].count(b"\n")
            pending = pending[n:]
        except BlockingIOError:
            pass
        except OSError:
            closed = True
            break
        if read:
            try:
                while True:
                    data = s.recv(1 << 16)
                    if not data:
                        closed = True
                        break
                    answered += data.count(b"\n")
            except BlockingIOError:
                pass
        else:
            time.sleep(0.0005)
            try:
                if s.recv(1, socket.MSG_PEEK) == b"":
                    closed = True
            except BlockingIOError:
                pass
            except OSError:
                closed = True
    return {"requestsSent": sent, "repliesRead": answered, "closedByDaemon": closed}


def hold(path, seconds, count):
    sockets = []
    for _ in range(count):
        try:
            s = connect(path)
            s.sendall(HELLO)
            sockets.append(s)
        except OSError:
            pass
    accepted = refused = 0
    # Each one's first line, a reply or a refusal, comes at once; a hello answered late is
    # still accepted, so only a hang may end the wait: one generous deadline for them all.
    deadline = time.monotonic() + 30
    for s in sockets:
        s.settimeout(max(0.01, deadline - time.monotonic()))
        try:
            first = s.makefile("rb").readline()
        except OSError:
            first = b""
        reply = json.loads(first) if first.strip() else {}
        if reply.get("id") == 1 and "result" in reply:
            accepted += 1
        else:
            refused += 1
    time.sleep(seconds)  # the flood itself: the connections held open this long
    for s in sockets:
        s.close()
    return {"attempted": count, "accepted": accepted, "refused": refused}


def main():
    path, mode, seconds = sys.argv[1], sys.argv[2], float(sys.argv[3])
    n = int(sys.argv[4]) if len(sys.argv) > 4 else None
    if mode == "churn":
        result = churn(path, seconds, n or 4)
    elif mode == "blast":
        result = blast(path, seconds, read=True)
    elif mode == "mute":
        result = blast(path, seconds, read=False)
    elif mode == "hold":
        result = hold(path, seconds, n or 100)
    else:
        sys.exit(__doc__)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
