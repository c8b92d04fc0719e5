// Everything the daemon can be told at start-up. The configuration file and then the
// command-line flags fill this in (ConfigurationSource); the daemon reads it, and SIGHUP
// replaces the settings that apply live (Daemon+Reload).

import PresentCore
import PresentProtocol

/// How frame time advances.
public enum ClockMode: String, Sendable, CaseIterable {
    /// CLOCK_MONOTONIC: real time, shared by every process on the host.
    case monotonic
    /// Starts at 0 and moves only by `advance` requests (tests, offline recording).
    case manual
}

/// Who may dismiss a presentation another connection made (dismiss requests only;
/// taps and swipes come from the screen and may dismiss anything that allows them).
public enum DismissPolicy: String, Sendable, CaseIterable {
    /// Only the connection that presented it.
    case owner
    /// Any connection of the same uid, and administrators (root, the admin group).
    case user
    /// Any connection.
    case anyone
}

/// The daemon's settings, with documented defaults.
public struct ServerConfiguration: Sendable {
    public var socketPath = SocketPath.systemDefault
    /// Group that may connect: the socket becomes 0660 and owned by it; nil = 0600.
    public var socketGroup: String?
    /// Adopt this listening descriptor (socket activation) instead of binding.
    public var inheritedListener: Int32?
    /// Frames per second while anything moves (1…240).
    public var fps = 60
    public var clock = ClockMode.monotonic
    public var container = Container.phonePortrait
    /// Screens besides `main`, made at start-up (`--output`, `outputs` in the file).
    public var outputs: [OutputDefinition] = []
    public var stack = StackConfiguration.standard
    public var limits = ProtocolLimits()
    public var dismissPolicy = DismissPolicy.user
    /// Members of this group (primary or supplementary) may dismiss any presentation
    /// under the `user` policy; nil = no admin group.
    public var adminGroup: String?
    /// Root counts as an administrator.
    public var rootIsAdmin = true
    /// Who holds which role (`roles` in the file, RoleGrants.swift); nil: the defaults.
    public var roles: RoleGrants?
    /// How long an owner may take to answer `shouldDismiss` before the dismissal is allowed.
    public var shouldDismissTimeout = 1.0
    /// Longest request line, bytes (longer: error −32600, then the connection is closed).
    public var maxLineBytes = 1 << 20
    /// Simultaneous connections; more are told `closing` and closed.
    public var maxConnections = 1024
    /// Simultaneous connections from one uid (dbus-daemon's max_connections_per_user).
    public var maxConnectionsPerUID = 256
    /// When socket-activated: exit after this many seconds with no clients and an empty
    /// stack (systemd starts presentd again on the next connection); 0 = never.
    public var exitIdleTime = 0.0
    /// Presentations on the stack and in the queue, for everyone / per connection.
    public var maxEntries = 256
    public var maxEntriesPerClient = 64
    /// Requests in one batch.
    public var maxBatch = 64
    /// Gestures of one connection waiting for an owner's `shouldDismiss` answer.
    public var maxDeferredReplies = 16
    /// Lossless bytes (replies, events) waiting for a slow reader before it is disconnected.
    public var maxQueuedBytes = 4 << 20
    /// Where the stack is saved for a restart (Continuity.swift).
    public var stateFile = StateFile.automatic
    /// How long restored presentations wait for their owners to resume them, seconds.
    public var resumeGrace = 10.0
    /// Check the stack's invariants after every change and log broken ones (tests, soak).
    public var checkInvariants = false
    /// Install SIGINT/SIGTERM handlers (in-process tests turn this off).
    public var handleSignals = true
    public var log = Log()
    /// The flight recorder's ring, bytes (its records' headers and lines); 0: no recording (FlightRecorder.swift).
    public var recorderBytes = 4 << 20
    /// Every screen starts with reduced motion (ModalStack+ReducedMotion); setMode changes a screen's.
    public var reducedMotion = false
    /// Where SIGUSR1 writes the recording (`--dump-recording`); nil: beside the socket.
    public var recordingPath: String?
    /// Where this configuration came from (file and flags), read again on SIGHUP.
    public var source: ConfigurationSource?

    public init() {}

}

/// Where the daemon keeps its stack between runs.
public enum StateFile: Sendable, Equatable {
    /// `$RUNTIME_DIRECTORY/presentd-state.json`, else beside the socket.
    case automatic
    case path(String)
    /// Not kept: a restart starts empty.
    case none

    /// The file, or nil when state is not kept.
    public func path(socketPath: String) -> String? {
        switch self {
        case .automatic: return Continuity.defaultPath(socketPath: socketPath)
        case .path(let path): return path
        case .none: return nil
        }
    }
}
