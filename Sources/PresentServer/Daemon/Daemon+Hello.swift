// `hello`: what a client learns when it introduces itself — the daemon's version, clock,
// limits, container and capabilities, its own roles, a resume token, and with `resume` the
// entries it gets back after a restart (Continuity/Resume.swift).

import PresentJSON
import PresentProtocol

extension Daemon {
    /// Names the client, gives it a resume token, and with `resume` hands it back the
    /// restored entries that token owned.
    func hello(_ client: Client, name: String?, resume: String?) -> JSONValue {
        client.introduce(as: name)
        let resumed = resume.map { self.resume($0, for: client) } ?? []
        if client.resumeToken == nil { client.holdResumeToken(Continuity.makeToken()) }
        recordHello(client)
        var result = helloResult().objectValue ?? [:]
        for (key, value) in roleFields(of: client) { result[key] = value }
        result["resumeToken"] = .string(client.resumeToken ?? "")
        if resume != nil { result["resumed"] = .array(resumed.map { .string($0) }) }
        return .object(result)
    }

    /// What every `hello` answers, whoever asks: the daemon, its clock, limits, main's container
    /// and its capabilities.
    func helloResult() -> JSONValue {
        [
            "server": "presentd", "version": .string(presentdVersion),
            "protocol": .int(Int64(ProtocolLimits.protocolVersion)),
         "clock": .string(configuration.clock.rawValue), "time": .double(now), "fps": .int(Int64(configuration.fps)),
         "limits": configuration.helloLimits,
         "container": CoreEncoding.container(main.stack.container),
         "capabilities": .array(Capability.names.map { .string($0) })]
    }
}
