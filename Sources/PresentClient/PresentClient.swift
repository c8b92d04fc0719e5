// A small blocking client for presentd: connect, call a method and wait for its reply,
// read notifications. Used by presentctl and the integration tests; clients in other
// languages live under Clients/.

#if canImport(Glibc)
import Glibc
#endif
import PresentJSON
import PresentProtocol
import PresentSystem

/// Why a call failed.
public enum ClientError: Error, CustomStringConvertible {
    /// Could not connect (no daemon, wrong path, permissions).
    case cannotConnect(path: String, reason: String)
    /// The daemon answered with a JSON-RPC error.
    case rpc(code: Int, message: String, data: JSONValue?)
    /// The connection broke or the daemon sent something that is not JSON-RPC.
    case io(String)
    case timedOut

    public var description: String {
        switch self {
        case .cannotConnect(let path, let reason): return "cannot connect to \(path): \(reason)"
        case .rpc(let code, let message, let data):
            return "error \(code): \(message)" + (data.map { " \($0.serializedString)" } ?? "")
        case .io(let reason): return reason
        case .timedOut: return "timed out waiting for the daemon"
        }
    }
}

/// One connection to presentd. Not thread-safe: use it from one thread.
public final class PresentClient {
    public let path: String
    private let fd: Int32
    private var pending = LineBuffer()
    private var nextID: Int64 = 1
    /// Notifications that arrived while waiting for a reply, oldest first.
    public private(set) var notifications: [JSONValue] = []
    /// Answers requests the daemon sends (`shouldDismiss`); nil = answer `{"allow": true}`.
    public var answerRequest: ((_ method: String, _ params: JSONValue?) -> JSONValue)?

    public init(path: String) throws(ClientError) {
        self.path = path
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            throw .cannotConnect(path: path, reason: "path longer than 107 bytes")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, b) in bytes.enumerated() { raw[i] = b }
        }
        let fd: Int32
        do {
            fd = try valueOrErrno("socket") {
                socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            }
        } catch { throw .cannotConnect(path: path, reason: error.reason) }
        do {
            _ = try valueOrErrno("connect") {
                withUnsafePointer(to: &address) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                        connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
                    }
                }
            }
        } catch {
            closeDescriptor(fd)
            throw .cannotConnect(path: path, reason: error.reason)
        }
        self.fd = fd
    }

    deinit { closeDescriptor(fd) }

    // MARK: Calls

    /// Sends a request and waits for its result; notifications on the way are kept.
    @discardableResult
    public func call(_ method: String, _ params: JSONValue? = nil,
                     timeout: Double = 10) throws(ClientError) -> JSONValue {
        let id = nextID
        nextID += 1
        try sendRaw(RPCEncoding.requestLine(id: .int(id), method: method, params: params))
        while true {
            let message = try readMessage(timeout: timeout)
            if message["id"] == .int(id) && message["method"] == nil { return try Self.result(of: message) }
            try route(message)
        }
    }

    /// Sends a notification (no reply).
    public func notify(_ method: String, _ params: JSONValue? = nil) throws(ClientError) {
        try send(RPCEncoding.notification(method: method, params: params))
    }

    /// The next notification: a kept one, else one read from the socket (nil on timeout).
    /// `interruptible`: nil also when a signal interrupts the wait (a program that handles
    /// one, say SIGWINCH, gets control back); otherwise the wait goes on after a signal.
    public func nextNotification(timeout: Double = 10, interruptible: Bool = false) throws(ClientError) -> JSONValue? {
        while notifications.isEmpty {
            let message: JSONValue
            do { message = try readMessage(timeout: timeout, interruptible: interruptible) } catch .timedOut {
                return nil
            }
            try route(message)
        }
        return notifications.removeFirst()
    }

    /// Forgets kept notifications.
    public func clearNotifications() { notifications.removeAll() }

    // MARK: Raw access (tests, presentctl's --raw)

    /// Writes bytes as they are.
    public func sendRaw(_ bytes: [UInt8]) throws(ClientError) {
        // MSG_NOSIGNAL: a daemon that went away is an error here, not a SIGPIPE that
        // kills the program this library lives in.
        do { try writeAll(bytes, to: fd, call: "send", sendFlags: Int32(MSG_NOSIGNAL)) } catch {
            throw .io("write failed: \(error.reason)")
        }
    }

    /// The next line from the daemon, without its newline (nil on timeout or EOF).
    public func readLine(timeout: Double = 10) throws(ClientError) -> [UInt8]? {
        do { return try nextLine(timeout: timeout) } catch .timedOut { return nil }
    }

    // MARK: Internals

    private func send(_ message: JSONValue) throws(ClientError) {
        try sendRaw(message.serializedLine())
    }

    /// A daemon request is answered at once; anything else is a notification to keep.
    private func route(_ message: JSONValue) throws(ClientError) {
        if let method = message["method"]?.stringValue, let id = message["id"] {
            let answer = answerRequest?(method, message["params"]) ?? ["allow": true]
            try send(["jsonrpc": "2.0", "id": id, "result": answer])
        } else {
            notifications.append(message)
        }
    }

    private static func result(of message: JSONValue) throws(ClientError) -> JSONValue {
        if let error = message["error"] {
            throw .rpc(code: Int(error["code"]?.int64Value ?? 0), message: error["message"]?.stringValue ?? "",
                       data: error["data"])
        }
        return message["result"] ?? .null
    }

    private func readMessage(timeout: Double, interruptible: Bool = false) throws(ClientError) -> JSONValue {
        let line = try nextLine(timeout: timeout, interruptible: interruptible)
        do { return try JSONValue.parse(line) } catch { throw .io("the daemon sent invalid JSON: \(error.message)") }
    }

    private func nextLine(timeout: Double, interruptible: Bool = false) throws(ClientError) -> [UInt8] {
        while true {
            if let line = pending.takeLine() { return line }
            try fill(timeout: timeout, interruptible: interruptible)
        }
    }

    /// `interruptible`: a signal ends the wait as a timeout does.
    private func fill(timeout: Double, interruptible: Bool = false) throws(ClientError) {
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let ready: Int32
        do {
            // Not retried: a signal starts the wait again from the caller's loop (or ends it).
            ready = try valueOrErrno("poll", retryOnInterrupt: false) {
                poll(&p, 1, Int32(min(timeout * 1000, Double(Int32.max))))
            }
        } catch where error.code == EINTR {
            if interruptible { throw .timedOut }
            return
        } catch {
            throw .io("poll failed: \(error.reason)")
        }
        guard ready > 0 else { throw .timedOut }
        let n: Int
        do { n = try pending.read(from: fd) } catch { throw .io("read failed: \(error.reason)") }
        guard n > 0 else { throw .io("the daemon closed the connection") }
    }
}
