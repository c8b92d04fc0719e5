"""The browser viewer: serves Clients/web and relays each page's WebSocket to its own
connection on the daemon's socket (one JSON-RPC message per text message).

    python -m presentd.web                      # the daemon on the default socket
    python -m presentd.web --spawn --clock manual   # a private daemon, time stepped from the page

Listens on 127.0.0.1 only, and refuses WebSocket upgrades from pages of other origins
(any site open in the browser could otherwise drive the daemon through it). Standard
library only: the WebSocket protocol (RFC 6455) is implemented here, server side only.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import hashlib
import mimetypes
import signal
import struct
import sys
from importlib import resources
from pathlib import Path
from typing import Sequence
from urllib.parse import urlsplit

from . import _wire

HOST = "127.0.0.1"
WS_GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
MAX_HEAD_BYTES = 16 << 10
#: Longest WebSocket message accepted from a page (the daemon's own line limit is 1 MiB).
MAX_MESSAGE_BYTES = 1 << 20

# Opcodes and close codes of RFC 6455.
CONTINUATION, TEXT, BINARY, CLOSE, PING, PONG = 0x0, 0x1, 0x2, 0x8, 0x9, 0xA
NORMAL, GOING_AWAY, PROTOCOL_ERROR, UNSUPPORTED, INVALID_DATA, TOO_BIG = 1000, 1001, 1002, 1003, 1007, 1009


def default_root() -> Path:
    """The page's files: packaged with presentd (``webroot``), which in the source tree is
    a link to Clients/web."""
    return Path(str(resources.files("presentd").joinpath("webroot")))


class WebSocketClosed(Exception):
    def __init__(self, code: int, reason: str = ""):
        super().__init__(f"{code} {reason}")
        self.code = code
        self.reason = reason


# MARK: - WebSocket framing


def accept_key(key: str) -> str:
    return base64.b64encode(hashlib.sha1((key + WS_GUID).encode()).digest()).decode()


def encode_frame(opcode: int, payload: bytes) -> bytes:
    """A final, unmasked frame (servers never mask)."""
    n = len(payload)
    if n < 126:
        head = struct.pack("!BB", 0x80 | opcode, n)
    elif n < 1 << 16:
        head = struct.pack("!BBH", 0x80 | opcode, 126, n)
    else:
        head = struct.pack("!BBQ", 0x80 | opcode, 127, n)
    return head + payload


def close_frame(code: int, reason: str = "") -> bytes:
    return encode_frame(CLOSE, struct.pack("!H", code) + reason.encode()[:120])


async def read_frame(reader: asyncio.StreamReader) -> tuple[bool, int, bytes]:
    """(fin, opcode, payload) of one client frame, unmasked; WebSocketClosed on a broken rule."""
    b0, b1 = await reader.readexactly(2)
    if b0 & 0x70:
        raise WebSocketClosed(PROTOCOL_ERROR, "reserved bits set")
    if not b1 & 0x80:
        raise WebSocketClosed(PROTOCOL_ERROR, "client frames must be masked")
    fin, opcode, n = bool(b0 & 0x80), b0 & 0x0F, b1 & 0x7F
    if n == 126:
        (n,) = struct.unpack("!H", await reader.readexactly(2))
    elif n == 127:
        (n,) = struct.unpack("!Q", await reader.readexactly(8))
    if opcode >= CLOSE and (n > 125 or not fin):
        raise WebSocketClosed(PROTOCOL_ERROR, "control frames are short and unfragmented")
    if n > MAX_MESSAGE_BYTES:
        raise WebSocketClosed(TOO_BIG, f"message over {MAX_MESSAGE_BYTES} bytes")
    mask = await reader.readexactly(4)
    data = bytearray(await reader.readexactly(n))
    for i in range(n):
        data[i] ^= mask[i & 3]
    return fin, opcode, bytes(data)


async def read_message(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> str:
    """The next text message, reassembled; pings are answered on the way."""
    parts: list[bytes] = []
    size = 0
    while True:
        fin, opcode, payload = await read_frame(reader)
        if opcode == PING:
            writer.write(encode_frame(PONG, payload))
            continue
        if opcode == PONG:
            continue
        if opcode == CLOSE:
            code = struct.unpack("!H", payload[:2])[0] if len(payload) >= 2 else NORMAL
            raise WebSocketClosed(code, "closed by the page")
        if opcode == BINARY:
            raise WebSocketClosed(UNSUPPORTED, "text messages only")
        if opcode not in (TEXT, CONTINUATION) or (opcode == TEXT) == bool(parts):
            raise WebSocketClosed(PROTOCOL_ERROR, "a text frame starts a message, continuations follow it")
        parts.append(payload)
        size += len(payload)
        if size > MAX_MESSAGE_BYTES:
            raise WebSocketClosed(TOO_BIG, f"message over {MAX_MESSAGE_BYTES} bytes")
        if fin:
            try:
                return b"".join(parts).decode("utf-8")
            except UnicodeDecodeError:
                raise WebSocketClosed(INVALID_DATA, "text must be UTF-8") from None


# MARK: - HTTP


class Server:
    """Static files from ``root`` plus ``/ws``, bridged to ``socket_path``."""

    def __init__(self, socket_path: str, root: Path, port: int):
        self.socket_path = socket_path
        self.root = root.resolve()
        self.port = port
        self.bridges = 0

    async def start(self) -> asyncio.AbstractServer:
        server = await asyncio.start_server(self.handle, HOST, self.port, limit=MAX_HEAD_BYTES)
        self.port = server.sockets[0].getsockname()[1]
        return server

    async def handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            head = await reader.readuntil(b"\r\n\r\n")
            method, target, headers = self.parse_head(head)
            path = urlsplit(target).path
            if path == "/ws":
                await self.websocket(reader, writer, headers)
            elif method not in ("GET", "HEAD"):
                self.respond(writer, 405, b"only GET\n")
            else:
                self.static(writer, path, method == "HEAD")
        except (asyncio.IncompleteReadError, asyncio.LimitOverrunError, ValueError, ConnectionError):
            pass  # a broken or oversized request: just close
        finally:
            try:
                await writer.drain()
            except ConnectionError:
                pass
            writer.close()

    @staticmethod
    def parse_head(head: bytes) -> tuple[str, str, dict[str, str]]:
        lines = head.decode("latin-1").split("\r\n")
        method, target, _version = lines[0].split(" ", 2)
        headers = {}
        for line in lines[1:]:
            if ":" in line:
                name, value = line.split(":", 1)
                headers[name.strip().lower()] = value.strip()
        return method, target, headers

    @staticmethod
    def respond(writer: asyncio.StreamWriter, status: int, body: bytes, content_type: str = "text/plain",
                head_only: bool = False) -> None:
        reason = {200: "OK", 400: "Bad Request", 403: "Forbidden", 404: "Not Found", 405: "Method Not Allowed",
                  502: "Bad Gateway"}.get(status, "Error")
        writer.write(f"HTTP/1.1 {status} {reason}\r\nContent-Type: {content_type}\r\n"
                     f"Content-Length: {len(body)}\r\nCache-Control: no-store\r\n"
                     f"X-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n".encode())
        if not head_only:
            writer.write(body)

    def static(self, writer: asyncio.StreamWriter, path: str, head_only: bool) -> None:
        name = "index.html" if path in ("", "/") else path.lstrip("/")
        file = (self.root / name).resolve()
        if self.root not in file.parents or not file.is_file():  # no way out of the root
            return self.respond(writer, 404, b"not found\n", head_only=head_only)
        kind = mimetypes.guess_type(file.name)[0] or "application/octet-stream"
        if kind.startswith("text/") or kind == "application/javascript":
            kind += "; charset=utf-8"
        self.respond(writer, 200, file.read_bytes(), kind, head_only)

    def origin_allowed(self, headers: dict[str, str]) -> bool:
        """Pages served here (or tools that send no Origin, which browsers always do)."""
        origin = headers.get("origin")
        return origin is None or origin in (f"http://{HOST}:{self.port}", f"http://localhost:{self.port}")

    async def websocket(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                        headers: dict[str, str]) -> None:
        key = headers.get("sec-websocket-key", "")
        if headers.get("upgrade", "").lower() != "websocket" or headers.get("sec-websocket-version") != "13" or not key:
            return self.respond(writer, 400, b"a WebSocket upgrade (version 13) is expected here\n")
        if not self.origin_allowed(headers):
            return self.respond(writer, 403, b"cross-origin WebSocket refused\n")
        try:
            daemon_reader, daemon_writer = await asyncio.open_unix_connection(self.socket_path,
                                                                              limit=_wire.MAX_LINE_BYTES)
        except OSError as e:
            return self.respond(writer, 502, f"cannot reach presentd at {self.socket_path}: {e}\n".encode())
        writer.write(("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                      f"Sec-WebSocket-Accept: {accept_key(key)}\r\n\r\n").encode())
        self.bridges += 1
        try:
            await self.bridge(reader, writer, daemon_reader, daemon_writer)
        finally:
            self.bridges -= 1
            daemon_writer.close()

    @staticmethod
    async def bridge(reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                     daemon_reader: asyncio.StreamReader, daemon_writer: asyncio.StreamWriter) -> None:
        """Page → daemon: each message as one line. Daemon → page: each line as one message.
        Whichever side ends first ends both."""

        async def page_to_daemon() -> int:
            try:
                while True:
                    text = await read_message(reader, writer)
                    # JSON has newlines only as whitespace between tokens: fold them, so one
                    # message stays one line.
                    daemon_writer.write(text.replace("\r", " ").replace("\n", " ").encode() + b"\n")
                    await daemon_writer.drain()
            except WebSocketClosed as e:
                return e.code if e.code not in (NORMAL, GOING_AWAY) else NORMAL
            except (asyncio.IncompleteReadError, ConnectionError):
                return GOING_AWAY

        async def daemon_to_page() -> int:
            try:
                while True:
                    line = await daemon_reader.readline()
                    if not line.endswith(b"\n"):
                        return GOING_AWAY  # the daemon hung up
                    writer.write(encode_frame(TEXT, line[:-1]))
                    await writer.drain()
            except (ConnectionError, ValueError):
                return GOING_AWAY

        tasks = [asyncio.ensure_future(page_to_daemon()), asyncio.ensure_future(daemon_to_page())]
        done, pending = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        for task in pending:
            task.cancel()
        code = next(iter(done)).result()
        try:
            writer.write(close_frame(code))
        except ConnectionError:
            pass


# MARK: - Command line


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    a = argparse.ArgumentParser(prog="python -m presentd.web", description=__doc__.split("\n\n")[0])
    a.add_argument("--port", type=int, default=8730, help="TCP port on 127.0.0.1 (default 8730; 0 picks one)")
    a.add_argument("--socket", help="the daemon's socket (default: $PRESENTD_SOCKET, $XDG_RUNTIME_DIR/presentd/…)")
    a.add_argument("--spawn", action="store_true", help="start a private presentd for the viewer")
    a.add_argument("--clock", choices=["monotonic", "manual"], default="monotonic",
                   help="with --spawn: the daemon's clock (manual: step time from the page)")
    a.add_argument("--fps", type=int, help="with --spawn: the daemon's frame rate")
    a.add_argument("--presentd", help="with --spawn: the presentd binary (default: $PRESENTD, else PATH)")
    a.add_argument("--root", type=Path, help="serve the page from here (default: the packaged Clients/web)")
    return a.parse_args(argv)


async def serve(socket_path: str, root: Path, port: int) -> None:
    """Serves until SIGINT or SIGTERM."""
    server = Server(socket_path, root, port)
    listener = await server.start()
    print(f"presentd.web: http://{HOST}:{server.port}/ (daemon at {socket_path})", flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    async with listener:
        await stop.wait()


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    root = args.root or default_root()
    if not (root / "index.html").is_file():
        print(f"presentd.web: no index.html in {root}", file=sys.stderr)
        return 2
    daemon = None
    if args.spawn:
        from .daemon import Daemon
        daemon = Daemon(args.presentd, clock=args.clock, fps=args.fps)
    socket_path = daemon.path if daemon else _wire.socket_path(args.socket)
    try:
        asyncio.run(serve(socket_path, root, args.port))
    finally:
        if daemon:
            daemon.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
