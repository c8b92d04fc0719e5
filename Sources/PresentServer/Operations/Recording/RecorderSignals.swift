// The signals that dump the flight recording.

#if canImport(Glibc)
import Glibc
#endif

extension Daemon {
    /// SIGUSR1: dump the recording to `recordingPath`. SIGABRT (systemd's watchdog signal):
    /// dump it too, when the loop still runs to see the signal, then abort as the signal
    /// meant (a core dump, the exit status). A loop stuck for good never sees it: systemd
    /// kills the daemon without a dump, and the last SIGUSR1 or recordDump is what there is.
    func recorderSignalWatchers() throws -> [SignalWatcher] {
        [try SignalWatcher(loop: loop, signals: [SIGUSR1]) { [unowned self] _ in
            self.dumpRecording(reason: "SIGUSR1")
        },
         try SignalWatcher(loop: loop, signals: [SIGABRT]) { [unowned self] _ in
            if self.isRecording { self.dumpRecording(reason: "SIGABRT") }
            signal(SIGABRT, SIG_DFL)
            raise(SIGABRT)
        }]
    }
}
