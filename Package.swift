// swift-tools-version:6.0
//
// presentd — a presentation daemon: a shared modal stack for a screen, animated
// frame updates for renderers, UIKit's custom-presentation model over JSON-RPC.
//
// Layers, bottom to top (each depends only on those below it):
//   PresentSystem    C calls: the errno error, the EINTR-retrying call wrapper, whole files,
//                    and output to stderr
//   PresentCore      pure, deterministic model: geometry, layout, motion, stack, scene (no I/O)
//   PresentJSON      JSON values: a one-pass strict parser and a streaming writer, each
//                    checked against json-c (the only json-c user, kept as the reference)
//   PresentProtocol  JSON-RPC 2.0 ↔ typed requests and events, validation with field paths
//   PresentServer    libuv loop, listener, connections, subscriptions, frame clock, systemd glue
//   PresentClient    a small blocking client used by presentctl and the tests
//   PresentCommandLine  the option scanner both executables share
//   PresentctlArguments presentctl's argv handed to the Swift runtime (C; arguments.c says why)
//   presentd, presentctl   thin executables
import PackageDescription

// Every function in a section of its own in release builds, so that presentctl's link can
// place the ones its commands run together (see presentctl below).
// presentctl's link order: the functions and data its commands touch, side by side (below).
let linkOrder = "--symbol-ordering-file=\(Context.packageDirectory)/bench/presentctl/startup.order"

let functionSections: [SwiftSetting] = [
    .unsafeFlags(["-Xfrontend", "-function-sections"], .when(configuration: .release)),
]

let package = Package(
    name: "presentd",
    products: [
        .executable(name: "presentd", targets: ["presentd"]),
        .executable(name: "presentctl", targets: ["presentctl"]),
        .library(name: "PresentCore", targets: ["PresentCore"]),
        .library(name: "PresentClient", targets: ["PresentClient"]),
    ],
    targets: [
        // C libraries (Debian 12: libuv1-dev, libjson-c-dev). systemd's sd-daemon protocols are
        // PresentServer's own (Systemd/SDDaemon.swift), so libsystemd is not linked.
        .systemLibrary(name: "CLibUV", pkgConfig: "libuv", providers: [.apt(["libuv1-dev"])]),
        .systemLibrary(name: "CJSONC", pkgConfig: "json-c", providers: [.apt(["libjson-c-dev"])]),

        .target(name: "PresentSystem"),
        .target(name: "PresentCore"),
        .target(name: "PresentJSON", dependencies: ["CJSONC"]),
        .target(name: "PresentProtocol", dependencies: ["PresentCore", "PresentJSON"]),
        .target(name: "PresentServer",
                dependencies: ["PresentCore", "PresentJSON", "PresentProtocol", "PresentSystem", "CLibUV"]),
        .target(name: "PresentClient", dependencies: ["PresentJSON", "PresentProtocol", "PresentSystem"],
                swiftSettings: functionSections),

        .target(name: "PresentCommandLine", dependencies: ["PresentSystem"]),

        .executableTarget(name: "presentd",
                          dependencies: ["PresentServer", "PresentCore", "PresentJSON", "PresentProtocol",
                                         "PresentCommandLine", "PresentSystem"]),
        .target(name: "PresentctlArguments", publicHeadersPath: "."),
        // Released statically linked: a `presentctl ping` lives about a millisecond, and loading
        // and relocating shared libraries would be most of it. Linked by lld with the functions
        // and data its commands touch (bench/presentctl/startup.order, from `make presentctl-order`) placed
        // together at the front of their sections: each page fault maps the 64 KiB around it, so
        // code scattered over the 6 MiB text costs a fault for every window it touches.
        .executableTarget(name: "presentctl",
                          dependencies: ["PresentClient", "PresentJSON", "PresentProtocol", "PresentCommandLine",
                                         "PresentSystem", "PresentctlArguments"],
                          swiftSettings: functionSections,
                          linkerSettings: [.unsafeFlags(["-static-executable", "-use-ld=lld", "-Xlinker", linkOrder,
                                                         "-Xlinker", "--no-warn-symbol-ordering"],
                                                        .when(platforms: [.linux], configuration: .release))]),
        // libFuzzer over the protocol layer (make fuzz); a plain build makes a corpus replayer.
        .executableTarget(name: "ProtocolFuzzer", dependencies: ["PresentProtocol", "PresentCore", "PresentJSON"],
                          path: "Tests/Fuzz/ProtocolFuzzer"),

        .testTarget(name: "PresentSystemTests", dependencies: ["PresentSystem"]),
        .testTarget(name: "PresentCoreTests", dependencies: ["PresentCore"]),
        .testTarget(name: "PresentJSONTests", dependencies: ["PresentJSON"]),
        .testTarget(name: "PresentProtocolTests", dependencies: ["PresentProtocol", "PresentCore", "PresentJSON"]),
        // What the Swift test targets share: the daemon harness, raw connections, waiting. Its
        // declarations are internal; the test targets import it @testable (debug builds).
        .target(name: "PresentTestSupport", dependencies: ["PresentClient", "PresentJSON"], path: "Tests/Support"),
        .testTarget(name: "PresentServerTests",
                    dependencies: ["PresentTestSupport", "PresentClient", "PresentJSON", "PresentCore", "PresentSystem",
                                   "presentd", "presentctl"]),
        // presentctl's commands, run as a user runs them, against the real daemon.
        .testTarget(name: "PresentctlTests",
                    dependencies: ["PresentTestSupport", "PresentClient", "PresentJSON", "presentd", "presentctl"]),
        // The Swift tables against what repeats them: the C and Python clients, the docs, the man pages.
        .testTarget(name: "ConsistencyTests",
                    dependencies: ["PresentTestSupport", "PresentCore", "PresentJSON", "PresentProtocol",
                                   "PresentServer", "presentd"]),
    ]
)
