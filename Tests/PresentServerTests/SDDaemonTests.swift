// SDDaemon, presentd's own sd-daemon: the environment parsing of socket activation and the
// watchdog (fed dictionaries, so the test process's environment, which every daemon the
// tests start inherits, is never touched), the checks on a passed fd against real sockets
// of each wrong kind, and sd_notify to a real datagram socket at a path and at an abstract
// name. SystemdTests runs the same code end to end under systemd-socket-activate.

#if canImport(Glibc)
import Glibc
#endif
@testable import PresentServer
import PresentSystem
@testable import PresentTestSupport
import Testing

@Suite("sd-daemon")
struct SDDaemonTests {
    /// The pid the parsing is told is its own.
    let me: pid_t = 4242

    private func listenFDs(_ variables: [String: String]) throws(SDDaemonError) -> [SDDaemon.PassedFD] {
        try SDDaemon.parseListenFDs(environment: { variables[$0] }, pid: me)
    }

    // MARK: LISTEN_PID, LISTEN_FDS, LISTEN_FDNAMES

    @Test func noVariablesMeansNotSocketActivated() throws {
        #expect(try listenFDs([:]).isEmpty)
        #expect(try listenFDs(["LISTEN_FDS": "1"]).isEmpty, "LISTEN_FDS without LISTEN_PID is not for anyone")
        #expect(try listenFDs(["LISTEN_PID": "4242"]).isEmpty)
    }

    @Test func variablesForAnotherProcessAreIgnored() throws {
        // A child that inherited them, or systemd-socket-activate's own: not an error, nothing passed.
        #expect(try listenFDs(["LISTEN_PID": "4243", "LISTEN_FDS": "2", "LISTEN_FDNAMES": "a:b"]).isEmpty)
    }

    @Test func fdsStartAtThreeAndAreNamedUnknownWithoutNames() throws {
        let passed = try listenFDs(["LISTEN_PID": "4242", "LISTEN_FDS": "3"])
        #expect(passed.map(\.fd) == [3, 4, 5])
        #expect(passed.map(\.name) == ["unknown", "unknown", "unknown"])
    }

    @Test func namesSplitOnEveryColon() throws {
        let passed = try listenFDs(["LISTEN_PID": "4242", "LISTEN_FDS": "3", "LISTEN_FDNAMES": "presentd::other"])
        #expect(passed == [.init(fd: 3, name: "presentd"), .init(fd: 4, name: ""), .init(fd: 5, name: "other")])
        #expect(try listenFDs(["LISTEN_PID": "4242", "LISTEN_FDS": "1", "LISTEN_FDNAMES": "presentd"])
                == [.init(fd: 3, name: "presentd")])
    }

    @Test func namesThatDoNotMatchTheCountAreAnError() {
        #expect(throws: SDDaemonError.namesDoNotMatchFDs(count: 3, names: ["a", "b"])) {
            try listenFDs(["LISTEN_PID": "4242", "LISTEN_FDS": "3", "LISTEN_FDNAMES": "a:b"])
        }
        #expect(throws: SDDaemonError.namesDoNotMatchFDs(count: 1, names: [])) {
            try listenFDs(["LISTEN_PID": "4242", "LISTEN_FDS": "1", "LISTEN_FDNAMES": ""])
        }
    }

    @Test(arguments: ["", "0", "-1", "+7", " 7", "7 ", "0x10", "abc", "99999999999999999999"])
    func badListenPIDIsAnError(value: String) {
        #expect(throws: SDDaemonError.invalidVariable("LISTEN_PID", value, expected: "a process id")) {
            try listenFDs(["LISTEN_PID": value, "LISTEN_FDS": "1"])
        }
    }

    @Test(arguments: ["", "0", "-1", "two", "1.5", "2147483645"])
    func badListenFDsIsAnError(value: String) {
        #expect(throws: SDDaemonError.invalidVariable("LISTEN_FDS", value, expected: "a positive number of fds")) {
            try listenFDs(["LISTEN_PID": "4242", "LISTEN_FDS": value])
        }
    }

    @Test func errorsNameTheVariable() {
        let error = SDDaemonError.invalidVariable("LISTEN_FDS", "two", expected: "a positive number of fds")
        #expect(error.description == "LISTEN_FDS=\"two\" is not a positive number of fds")
        #expect(SocketActivationError.environment(error.description).description
                == "cannot read the sockets systemd passed (LISTEN_FDS): LISTEN_FDS=\"two\" is not a positive number "
                   + "of fds"
        )
    }

    @Test func closeOnExecIsSetAndOtherFlagsKept() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { fds.forEach { _ = close($0) } }
        #expect(fcntl(fds[0], F_GETFD) & FD_CLOEXEC == 0)
        try SDDaemon.setCloseOnExec(fds[0])
        #expect(fcntl(fds[0], F_GETFD) & FD_CLOEXEC != 0)
        try SDDaemon.setCloseOnExec(fds[0])   // already set: unchanged, no error
        #expect(fcntl(fds[0], F_GETFD) & FD_CLOEXEC != 0)
        #expect(throws: SDDaemonError.system(SystemCallError("fcntl(-1, F_GETFD)", code: EBADF))) {
            try SDDaemon.setCloseOnExec(-1)
        }
    }

    // MARK: The passed fd: a listening AF_UNIX stream socket

    @Test func aListeningUnixStreamSocketIsAccepted() throws {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        // Autobind (an address of just the family) gives it an abstract name to listen on.
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sa_family_t>.size))
            }
        }
        #expect(bound == 0)
        #expect(listen(fd, 8) == 0)
        try SDDaemon.checkUnixStreamListener(fd)
    }

    @Test func everyOtherKindOfFdIsRefusedSayingWhatItIs() throws {
        var pair: [Int32] = [0, 0]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0)
        var pipeFDs: [Int32] = [0, 0]
        #expect(pipe(&pipeFDs) == 0)
        let datagram = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        let tcp = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #expect(listen(tcp, 8) == 0)   // on an ephemeral port of every address
        defer { (pair + pipeFDs + [datagram, tcp]).forEach { _ = close($0) } }

        #expect(throws: SDDaemonError.unsuitableSocket(pair[0], "not listening")) {
            try SDDaemon.checkUnixStreamListener(pair[0])
        }
        #expect(throws: SDDaemonError.unsuitableSocket(pipeFDs[0], "not a socket")) {
            try SDDaemon.checkUnixStreamListener(pipeFDs[0])
        }
        #expect(throws: SDDaemonError.unsuitableSocket(datagram, "a datagram socket")) {
            try SDDaemon.checkUnixStreamListener(datagram)
        }
        #expect(throws: SDDaemonError.unsuitableSocket(tcp, "an IP socket")) {
            try SDDaemon.checkUnixStreamListener(tcp)
        }
        #expect(throws: SDDaemonError.system(SystemCallError("fstat(-1)", code: EBADF))) {
            try SDDaemon.checkUnixStreamListener(-1)
        }
        let refusal = SocketActivationError.notAUnixStreamListener(3, "it is a datagram socket").description
        #expect(refusal.contains("fd 3 from systemd is not a listening Unix stream socket (it is a datagram socket)"))
    }

    // MARK: WATCHDOG_USEC, WATCHDOG_PID

    private func watchdog(_ variables: [String: String]) throws(SDDaemonError) -> UInt64? {
        try SDDaemon.watchdogMicroseconds(environment: { variables[$0] }, pid: me)
    }

    @Test func watchdogIntervalIsReadForThisProcessOnly() throws {
        #expect(try watchdog([:]) == nil)
        #expect(try watchdog(["WATCHDOG_USEC": "200000"]) == 200_000)
        #expect(try watchdog(["WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "4242"]) == 30_000_000)
        #expect(try watchdog(["WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "1"]) == nil, "another process's watchdog")
        #expect(try watchdog(["WATCHDOG_USEC": "18446744073709551614"]) == UInt64.max - 1)
    }

    @Test(arguments: ["", "0", "-5", "1e6", "200 000", "18446744073709551615", "18446744073709551616"])
    func badWatchdogUsecIsAnError(value: String) {
        // 0 and UINT64_MAX (systemd's infinity) are "not set", which libsystemd reports as -EINVAL.
        #expect(
            throws: SDDaemonError.invalidVariable("WATCHDOG_USEC", value, expected: "a positive number of microseconds")
        ) {
            try watchdog(["WATCHDOG_USEC": value])
        }
    }

    @Test func badWatchdogPIDIsAnError() {
        #expect(throws: SDDaemonError.invalidVariable("WATCHDOG_PID", "me", expected: "a process id")) {
            try watchdog(["WATCHDOG_USEC": "1000", "WATCHDOG_PID": "me"])
        }
    }

    // MARK: NOTIFY_SOCKET

    @Test func notifyWithoutASocketDoesNothing() throws {
        #expect(try SDDaemon.notify("READY=1", socket: nil) == false)
    }

    @Test func notifyReachesASocketAtAPath() throws {
        let directory = try TemporaryDirectory(prefix: "presentd-sdd")
        defer { directory.remove() }
        let notify = try NotifySocket(path: directory.path + "/notify")
        #expect(try SDDaemon.notify("READY=1\nSTATUS=0 clients", socket: notify.path))
        let notice = try #require(notify.receive(timeout: generousTimeout))
        #expect(notice.text == "READY=1\nSTATUS=0 clients")
    }

    @Test func notifyReachesAnAbstractName() throws {
        // Bound with a length that ends with the name: a sender that counted a trailing NUL
        // would name another socket, and be refused.
        let notify = try NotifySocket(path: "@presentd-sdd-\(getpid())-\(UInt32.random(in: 0 ... .max))")
        #expect(try SDDaemon.notify("WATCHDOG=1", socket: notify.path))
        let notice = try #require(notify.receive(timeout: generousTimeout))
        #expect(notice.text == "WATCHDOG=1")
    }

    @Test func notifyToNobodyIsAnErrorNotACrash() {
        let path = "/tmp/presentd-sdd-\(getpid())-absent.sock"
        #expect(throws: SDDaemonError.system(SystemCallError("sendto(\(path))", code: ENOENT))) {
            try SDDaemon.notify("READY=1", socket: path)
        }
        #expect(
            throws: SDDaemonError.system(
                SystemCallError("sendto(@presentd-sdd-nobody-\(getpid()))", code: ECONNREFUSED))
        ) {
            try SDDaemon.notify("READY=1", socket: "@presentd-sdd-nobody-\(getpid())")
        }
    }

    @Test func notifyAddressesAreAbsolutePathsOrAbstractNames() throws {
        let offset = MemoryLayout<sockaddr_un>.offset(of: \.sun_path)!
        #expect(try SDDaemon.notifyAddress("/run/systemd/notify").length == socklen_t(offset + 19 + 1))
        let abstract = try SDDaemon.notifyAddress("@ab")
        #expect(abstract.length == socklen_t(offset + 3), "no trailing NUL for an abstract name")
        #expect(
            withUnsafeBytes(of: abstract.address.sun_path) { Array($0.prefix(3)) } == [
                0, UInt8(ascii: "a"), UInt8(ascii: "b")
            ])
        let expected = "an absolute path or an @abstract name"
        for bad in ["", "@", "/", "run/notify", "notify", "/a\u{0}b"] {
            #expect(throws: SDDaemonError.invalidVariable("NOTIFY_SOCKET", bad, expected: expected)) {
                try SDDaemon.notifyAddress(bad)
            }
        }
        // sun_path holds 108 bytes: 107 and a NUL for a path, all 108 for an abstract name.
        _ = try SDDaemon.notifyAddress("/" + String(repeating: "p", count: 106))
        _ = try SDDaemon.notifyAddress("@" + String(repeating: "a", count: 107))
        for (long, limit) in [
            ("/" + String(repeating: "p", count: 107), 107), ("@" + String(repeating: "a", count: 108), 108)
        ] {
            #expect(throws: SDDaemonError.invalidVariable("NOTIFY_SOCKET", long, expected: "at most \(limit) bytes")) {
                try SDDaemon.notifyAddress(long)
            }
        }
    }
}
