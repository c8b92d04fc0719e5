// The features `hello` announces in `capabilities`, one case each: clients probe for an
// optional feature by name instead of tripping over fields an older daemon does not know.
// New features add a case at the end (docs/PROTOCOL.md, section 5, hello, lists them).

/// A feature of the protocol this daemon has.
public enum Capability: String, Sendable, CaseIterable {
    /// Presentations carry content (title, message, icon, actions, fields, progress, surface).
    case content
    /// `update`: entries change in place.
    case update
    /// `autoDismiss`: entries leave on their own.
    case autoDismiss
    /// `level`: overlay, normal and alert levels.
    case levels
    /// `defineContext`/`removeContext`: presentation contexts.
    case contexts
    /// Several screens: `addOutput`, `removeOutput`, `outputs`, `output` params.
    case outputs
    /// `confirmDismiss`: the owner is asked (`shouldDismiss`) before a gesture dismisses.
    case confirmDismiss
    /// JSON-RPC batches (arrays of requests).
    case batch
    /// `hello {resume}`: presentations survive a daemon restart.
    case resume
    /// `rpc.discover`: the OpenRPC document of every method.
    case rpcDiscover = "rpc.discover"
    /// `stats`: the daemon's counters.
    case stats
    /// The `animations` topic and the `retargeted` lifecycle event: analytic motion.
    case animations
    /// `setMode {doNotDisturb}`, the `modes` topic, `droppable`.
    case doNotDisturb
    /// `present {dryRun: true}`.
    case dryRun
    /// `explain {id}`.
    case explain
    /// `recordDump`: the flight recorder, dumped as NDJSON (and replayed by presentd --replay).
    case recordDump

    /// The names `hello` returns, in this order.
    public static var names: [String] { allCases.map(\.rawValue) }
}
