// MethodTable is what RequestDecoder refuses unknown params by and what rpc.discover
// publishes: these tests hold the two to each other, method by method and param by param,
// (SelfDescriptionTests keeps docs/openrpc.json what the daemon's rpc.discover returns).

import Testing
import PresentJSON
import PresentProtocol

private func decodeError(_ method: String, _ params: JSONValue?) -> RPCError? {
    do {
        _ = try RequestDecoder().decode(method: method, params: params)
        return nil
    } catch {
        return error
    }
}

private func isUnknownField(_ error: RPCError?, _ name: String) -> Bool {
    error?.code == .invalidParams && error?.data?["field"] == .string(name) && error?.data?["reason"] == "unknown field"
}

@Suite("MethodTable")
struct MethodTableTests {
    @Test func requestMethodsAreTheTables() {
        #expect(Request.methods == MethodTable.methods.map(\.name))
        #expect(Set(Request.methods).count == Request.methods.count, "a method is listed twice")
    }

    /// The lookup finds each method by its exact name, and nothing else: not a name one
    /// byte short or long, another case, a name of the same length, or one longer than any.
    @Test func aMethodIsFoundByItsExactNameOnly() {
        for (index, spec) in MethodTable.methods.enumerated() {
            #expect(MethodTable.spec(spec.name) === spec)
            #expect(MethodTable.spec(spec.name)?.index == index)
            #expect(MethodTable.spec(String(spec.name.dropLast())).map(\.name) != spec.name)
            #expect(MethodTable.spec(spec.name + "x") == nil)
            #expect(MethodTable.spec(spec.name.uppercased()) == nil)
        }
        for name in ["", "pinG", "pin\u{301}g", "p\u{0}ng", String(repeating: "x", count: 200)] {
            #expect(MethodTable.spec(name) == nil, "\(name)")
        }
    }

    /// Every method of the table is one the decoder decodes (never −32601), and a name
    /// outside it is −32601 whatever its params.
    @Test(arguments: MethodTable.methods.map(\.name))
    func theDecoderKnowsEveryMethod(_ method: String) {
        #expect(decodeError(method, [:])?.code != .methodNotFound)
    }

    @Test func anUnknownMethodIsNotFoundWhateverItsParams() {
        for params: JSONValue? in [nil, [:], [], [1, 2], ["x": "y"]] {
            #expect(decodeError("teleport", params)?.code == .methodNotFound)
        }
    }

    /// Each documented param is accepted (whatever else its value makes the decoder say,
    /// it is never "unknown field"), and one the table does not list is refused.
    @Test(arguments: MethodTable.methods.map(\.name))
    func documentedParamsAreAcceptedAndOthersRefused(_ method: String) throws {
        let spec = try #require(MethodTable.spec(method))
        for param in spec.params {
            let error = decodeError(method, .object([param.name: .null]))
            #expect(!isUnknownField(error, param.name), "\(method) refuses its documented param \(param.name)")
        }
        #expect(isUnknownField(decodeError(method, ["undocumented": 1]), "undocumented"),
                "\(method) accepts a param the table does not list")
    }

    /// A param is taken by its exact name only: names a byte shorter or longer, of the same
    /// length but another name, in other case, empty, or spelt with a combining sequence
    /// are unknown fields (the check compares a key with the names of its length).
    @Test(arguments: MethodTable.methods.filter { !$0.params.isEmpty }.map(\.name))
    func aParamIsTakenByItsExactNameOnly(_ method: String) throws {
        let spec = try #require(MethodTable.spec(method))
        let documented = Set(spec.params.map(\.name))
        for param in spec.params {
            let name = param.name
            let sameLength = String(name.dropLast()) + (name.last == "q" ? "z" : "q")
            for variant in [String(name.dropLast()), name + "x", name.uppercased(), sameLength, "", name + "\u{301}"]
            where !documented.contains(variant) {
                // (The field names a key that is not an identifier as `params["…"]`.)
                let error = decodeError(method, .object([variant: .null]))
                #expect(error?.code == .invalidParams && error?.data?["reason"] == "unknown field",
                        "\(method) takes \(variant.debugDescription) for its param \(name)")
            }
        }
    }

    /// Without params, a method with required params fails on one of them (update first
    /// asks for something to change); one without any decodes.
    @Test(arguments: MethodTable.methods.map(\.name))
    func requiredParamsAreTheOnesTheDecoderAsksFor(_ method: String) throws {
        let spec = try #require(MethodTable.spec(method))
        let required = Set(spec.params.filter(\.required).map(\.name))
        let error = decodeError(method, nil)
        if required.isEmpty {
            #expect(error == nil, "\(method) without params: \(error?.message ?? "")")
        } else if let field = error?.data?["field"]?.stringValue, method != "update" {
            #expect(
                required.contains(field) && error?.data?["reason"] == "required", "\(method): \(error?.message ?? "")")
        } else {
            #expect(error?.code == .invalidParams, "\(method) decodes without its required params")
        }
    }

    /// JSON-RPC 2.0: `params: []` is no params, for methods that need none.
    @Test func anEmptyArrayIsNoParams() {
        for spec in MethodTable.methods where !spec.params.contains(where: \.required) {
            #expect(decodeError(spec.name, []) == nil, "\(spec.name) refuses params: []")
        }
        #expect(decodeError("tap", [])?.data?["field"] == "params")
        #expect(
            decodeError("ping", [1])?.message
                == "invalid params: params: presentd takes named params (an object), not an array")
    }

    @Test func theOpenRPCDocumentListsTheTable() throws {
        let document = OpenRPC.document(version: "9.9.9")
        #expect(document["openrpc"] == "1.2.6")
        #expect(document["info"]?["title"] == "presentd")
        #expect(document["info"]?["version"] == "9.9.9")
        let methods = try #require(document["methods"]?.arrayValue)
        #expect(methods.compactMap { $0["name"]?.stringValue } == Request.methods)
        for (method, spec) in zip(methods, MethodTable.methods) {
            let params = try #require(method["params"]?.arrayValue)
            #expect(params.compactMap { $0["name"]?.stringValue } == spec.params.map(\.name))
            #expect(params.compactMap { $0["required"]?.boolValue } == spec.params.map(\.required))
            #expect(params.allSatisfy { $0["schema"]?.objectValue != nil })
            #expect(method["result"]?["name"]?.stringValue?.isEmpty == false)
        }
    }

    /// Params a method accepts, made from its row: each required param with its first name,
    /// or a plain value of its type. The few whose required params need more say so here.
    private static let sampleOverrides: [String: JSONValue] = [
        "update": ["id": "a", "cornerRadius": 4],
        "defineContext": ["name": "c", "frame": ["x": 0, "y": 0, "width": 10, "height": 10]],
    ]

    static func sampleParams(_ spec: MethodSpec) -> JSONObject {
        if let params = sampleOverrides[spec.name]?.objectValue { return params }
        var params: JSONObject = [:]
        for param in spec.params where param.required {
            let name = JSONValue.string(param.names.first ?? "a")
            switch param.types.first {
            case .array: params[param.name] = param.names.isEmpty ? [] : [name]
            case .number, .integer: params[param.name] = 1
            case .boolean: params[param.name] = true
            case .object: params[param.name] = [:]
            case .string, nil: params[param.name] = name
            }
        }
        return params
    }

    /// Each row decodes its params into its own method's request, the case the daemon's
    /// `execute` runs: a row that made another method's request would run the wrong handler.
    @Test(arguments: MethodTable.methods.map(\.name))
    func eachRowDecodesToItsOwnRequest(_ method: String) throws {
        let spec = try #require(MethodTable.spec(method))
        let request = try RequestDecoder().decode(method: method, params: .object(Self.sampleParams(spec)))
        let caseName = String(String(describing: request).prefix { $0 != "(" })
        #expect(caseName == (method == "rpc.discover" ? "discover" : method))
    }

    /// A param's declared names are the ones its decoder takes: a name outside them is
    /// refused with a reason that lists every one of them, and each of them is accepted
    /// (whatever else the decoder then says, it is not that refusal).
    @Test(arguments: MethodTable.methods.map(\.name))
    func declaredNamesAreTheOnesTheDecoderTakes(_ method: String) throws {
        let spec = try #require(MethodTable.spec(method))
        for param in spec.params where !param.names.isEmpty {
            let isArray = param.types == [.array]
            let field = isArray ? "\(param.name)[0]" : param.name
            func value(_ name: String) -> JSONValue { isArray ? [.string(name)] : .string(name) }
            var params = Self.sampleParams(spec)
            params[param.name] = value("noSuchName")
            let refusal = try #require(
                decodeError(method, .object(params)), "\(method) takes \(param.name) \"noSuchName\"")
            #expect(refusal.data?["field"]?.stringValue == field, "\(refusal.message)")
            for name in param.names {
                #expect(
                    refusal.message.contains(name),
                    "\(method).\(param.name)'s refusal does not list \(name): \(refusal.message)")
                params[param.name] = value(name)
                let error = decodeError(method, .object(params))
                #expect(error?.message != refusal.message, "\(method) refuses \(param.name) \(name)")
            }
        }
    }

    /// A method that a capability announces names one `hello` returns, and OpenRPC says which.
    @Test func methodFeaturesAreAnnouncedCapabilities() throws {
        let methods = try #require(OpenRPC.document(version: "1").objectValue?["methods"]?.arrayValue)
        for (method, spec) in zip(methods, MethodTable.methods) {
            switch spec.feature {
            case .core: #expect(method["x-capability"] == nil, "\(spec.name)")
            case .capability(let capability):
                #expect(Capability.names.contains(capability.rawValue))
                #expect(method["x-capability"]?.stringValue == capability.rawValue, "\(spec.name)")
            }
        }
        #expect(MethodTable.spec("rpc.discover")?.feature == .capability(.rpcDiscover))
        #expect(MethodTable.spec("ping")?.feature == .core)
    }

    @Test func capabilitiesNameMethodsThatExist() {
        #expect(Capability.names.contains("rpc.discover") && MethodTable.spec("rpc.discover") != nil)
        #expect(Capability.names.contains("stats") && MethodTable.spec("stats") != nil)
        #expect(Set(Capability.names).count == Capability.names.count)
    }
}
