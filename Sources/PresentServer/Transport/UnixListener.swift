import CLibUV
import Glibc
import PresentSystem

/// The daemon's listening Unix socket: binds it safely (or adopts systemd's), accepts
/// clients and hands each over as a `Connection` with its peer credentials.
///
/// Accepting is done here, on a `uv_poll_t`, rather than by `uv_listen`: on EMFILE libuv
/// silently accepts and drops every pending client, and when its spare fd is gone it calls
/// back in a loop that never yields. Here an accept error is logged through
/// `onAcceptError`, accepting pauses for `acceptRetryDelay`, and pending clients wait in
/// the backlog instead of being dropped.
///
/// Each accepted socket is read once, at once (`firstRead`), before anything is built for
/// it. A client that already closed without a word (a health check, a script that gave
/// up, a flood of empty connects) cannot change anything in the daemon: its socket is
/// closed there and then, with no credentials read, no `Connection`, no libuv handle and
/// nothing registered with epoll, and it is only counted (`onSilentClose`). A client that
/// wrote before it was accepted (presentctl writes its request right after connect) has
/// its first bytes handed over with the connection and its first lines served at once,
/// not a loop turn later.
final class UnixListener: LoopOwned {
    /// Accepts per wake-up, so a burst of connects cannot starve other handles.
    private static let acceptsPerWakeup = 32

    /// The socket path (for an adopted socket, its bound name if any).
    let path: String
    /// A new client; set its callbacks here. Bytes it sent before it was accepted are
    /// delivered as lines when this returns (`Connection.deliverEarly`); reading from the
    /// socket starts on a later iteration.
    var onAccept: (Connection) -> Void = { _ in }
    /// A client was accepted that had closed (or failed) before sending anything: its
    /// socket is closed already, and nothing else was made for it.
    var onSilentClose: () -> Void = {}
    /// An accept failed (EMFILE, ENFILE, ENOMEM...); accepting resumes after a pause.
    var onAcceptError: (TransportError) -> Void = UnixListener.logToStandardError
    /// Pause after an accept error, in seconds.
    var acceptRetryDelay = 0.1
    /// `accept4(fd, nil, nil, NONBLOCK | CLOEXEC)`; a seam for tests to simulate EMFILE.
    var acceptCall: (Int32) -> Int32 = { fd in
        accept4(fd, nil, nil, Int32(SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue))
    }

    private let loop: EventLoop
    private let fd: Int32
    private let poll: UnsafeMutablePointer<uv_poll_t>
    /// The file this listener created (device, inode); nil when adopted.
    private let boundFile: (device: UInt64, inode: UInt64)?
    private var retryTimer: Timer?
    private var closing = false

    /// Binds `path` with exactly `mode` (0o600, or 0o660 with `group`) and listens.
    ///
    /// Refuses paths over 107 bytes. Creates a missing parent directory (0700, or 0750
    /// owned by `group`). An existing socket file is probed with `connect()`: refused means
    /// stale, so it is replaced; an answer means another daemon, which is an error, as is a
    /// file that is not a socket.
    convenience init(loop: EventLoop, path: String, mode: mode_t = 0o600,
                     group: gid_t? = nil) throws {
        let socket = try UnixSocket.listen(path: path, mode: mode, group: group)
        do {
            try self.init(loop: loop, fd: socket.fd, path: path,
                          boundFile: (socket.device, socket.inode))
        } catch {
            UnixSocket.unlinkIfSame(path, device: socket.device, inode: socket.inode)
            throw error
        }
    }

    /// Adopts a socket that is already bound and listening (systemd socket activation,
    /// `SD_LISTEN_FDS_START`). Its file is never unlinked: systemd owns it. The listener
    /// owns the fd from here on, and closes it on failure too.
    convenience init(loop: EventLoop, adopting fd: Int32) throws {
        // Listening again only sets the backlog; it also fails early for a non-socket.
        guard Glibc.listen(fd, UnixSocket.backlog) == 0 else {
            let error = TransportError.posix("listen", path: "fd \(fd)")
            Glibc.close(fd)
            throw error
        }
        let path = UnixSocket.boundPath(of: fd) ?? "fd \(fd)"
        try self.init(loop: loop, fd: fd, path: path, boundFile: nil)
    }

    private init(loop: EventLoop, fd: Int32, path: String,
                 boundFile: (device: UInt64, inode: UInt64)?) throws {
        self.loop = loop
        self.fd = fd
        self.path = path
        self.boundFile = boundFile
        poll = .allocate(capacity: 1)
        let status = uv_poll_init(loop.raw, poll, fd)
        guard status == 0 else {
            poll.deallocate()
            Glibc.close(fd)
            throw TransportError.uv("uv_poll_init", status: status, path: path)
        }
        poll.pointee.data = Unmanaged.passUnretained(self).toOpaque()
        loop.keepAlive(self)
        startAccepting()
    }

    // MARK: Accepting

    private func startAccepting() {
        guard !closing else { return }
        uv_poll_start(poll, Int32(UV_READABLE.rawValue)) { poll, status, _ in
            let listener = Unmanaged<UnixListener>.fromOpaque(poll!.pointee.data)
                .takeUnretainedValue()
            if status < 0 {
                listener.pauseAccepting(after: .uv("poll", status: status, path: listener.path))
            } else {
                listener.acceptPending()
            }
        }
    }

    private func acceptPending() {
        for _ in 0..<Self.acceptsPerWakeup {
            guard !closing else { return }
            do {
                guard let client = try valueOrWouldBlock("accept4", path: path, { acceptCall(fd) }) else { return }
                guard let early = firstRead(client) else {
                    Glibc.close(client)
                    onSilentClose()
                    continue
                }
                admit(client, early: early)
            } catch where error.code == ECONNABORTED {
                continue   // that client gave up while queued; the next may not have
            } catch {
                return pauseAccepting(after: TransportError(error))
            }
        }
        // More may be pending: the poll is level-triggered, so the next iteration continues.
    }

    /// What the client sent before it was accepted, read into the loop's read buffer
    /// (empty: nothing yet); nil when it has closed, or its socket failed, without a byte:
    /// then there is nothing to serve, and nothing to wait for.
    private func firstRead(_ client: Int32) -> UnsafeRawBufferPointer? {
        let buffer = loop.readBuffer
        do {
            guard let count = try valueOrWouldBlock("recv", {
                recv(client, buffer.baseAddress, buffer.count, Int32(MSG_DONTWAIT))
            }) else { return UnsafeRawBufferPointer(start: nil, count: 0) }
            return count == 0 ? nil : UnsafeRawBufferPointer(rebasing: buffer[..<count])
        } catch {
            return nil
        }
    }

    /// `early`: the client's first bytes, in the loop's read buffer, which nothing else
    /// uses until they are delivered.
    private func admit(_ client: Int32, early: UnsafeRawBufferPointer) {
        do {
            let connection = try Connection(loop: loop, fd: client)
            onAccept(connection)
            connection.deliverEarly(early)
        } catch {
            onAcceptError(error as? TransportError
                          ?? TransportError(.failed, operation: "accept", path: path))
        }
    }

    /// Logs `error` and stops polling for `acceptRetryDelay`: retrying at once would spin,
    /// since the socket stays readable while clients wait.
    private func pauseAccepting(after error: TransportError) {
        onAcceptError(error)
        guard !closing else { return }
        uv_poll_stop(poll)
        do {
            let timer = try retryTimer ?? Timer(loop: loop)
            timer.onFire = { [weak self] in self?.startAccepting() }
            timer.start(after: acceptRetryDelay)
            retryTimer = timer
        } catch {
            startAccepting()   // no timer: keep going rather than stop accepting for good
        }
    }

    /// The default `onAcceptError`: one warning line for journald (`<4>`). Written with
    /// write(2): Glibc's `stderr` is a global `var`, which Swift 6 refuses to touch.
    static func logToStandardError(_ error: TransportError) {
        let line = "<4>presentd: accept failed: \(error); retrying\n"
        try? writeAll(Array(line.utf8), to: 2)
    }

    // MARK: Closing

    /// Stops accepting and unlinks the socket file if this listener created it (and it is
    /// still that file). Connections already accepted stay open.
    func close() {
        guard !closing else { return }
        closing = true
        retryTimer?.close()
        retryTimer = nil
        if let boundFile {
            UnixSocket.unlinkIfSame(path, device: boundFile.device, inode: boundFile.inode)
        }
        // The poll handle first, its fd in the close callback.
        uv_close(uvHandle(poll)) { poll in
            Unmanaged<UnixListener>.fromOpaque(poll!.pointee.data).takeUnretainedValue()
                .finishClose()
        }
    }

    private func finishClose() {
        Glibc.close(fd)
        poll.deallocate()
        onAccept = { _ in }
        onSilentClose = {}
        onAcceptError = { _ in }
        loop.endKeepAlive(self)
    }
}
