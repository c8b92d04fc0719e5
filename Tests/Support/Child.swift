// A program the test started: its exit status, reaped once (its pid is never signalled
// after: the kernel may have given it to another process by then), and killed if it is
// still running when the test lets go of it.

#if canImport(Glibc)
import Glibc
#endif

final class Child {
    let pid: pid_t
    private var status: Int32?

    init(_ pid: pid_t) { self.pid = pid }

    deinit {
        if reap() == nil {
            kill(pid, SIGKILL)
            var s: Int32 = 0
            waitpid(pid, &s, 0)
        }
    }

    /// Its exit status once it has exited; nil while it runs.
    func reap() -> Int32? {
        if let status { return status }
        var s: Int32 = 0
        guard waitpid(pid, &s, WNOHANG) == pid else { return nil }
        status = DaemonHarness.exitStatus(s)
        return status
    }
}
