// `rpc.discover`'s answer: an OpenRPC 1.2.6 document (https://spec.open-rpc.org) written
// from MethodTable, the table RequestDecoder checks params against. docs/openrpc.json is
// a copy (`make openrpc`), which a test keeps fresh.

import PresentJSON

public enum OpenRPC {
    public static let specVersion = "1.2.6"

    /// The document for a daemon of version `version`.
    public static func document(version: String) -> JSONValue {
        ["openrpc": .string(specVersion),
         "info": ["title": "presentd", "version": .string(version),
                  "description": .string(
                      "A presentation daemon: a shared modal stack over JSON-RPC 2.0 on a Unix socket, one "
                      + "object per line (docs/PROTOCOL.md).")],
         "methods": .array(MethodTable.methods.map(method))]
    }

    private static func method(_ spec: MethodSpec) -> JSONValue {
        var method: JSONObject = [
            "name": .string(spec.name), "summary": .string(spec.summary),
            // presentd takes named params only.
            "paramStructure": "by-name",
            "params": .array(spec.params.map(param)),
            "result": ["name": .string(spec.name + "Result"), "schema": ["type": "object"]]]
        // An OpenRPC extension field: the `hello` capability a client probes before calling it.
        if case .capability(let capability) = spec.feature { method["x-capability"] = .string(capability.rawValue) }
        return .object(method)
    }

    private static func param(_ spec: ParamSpec) -> JSONValue {
        ["name": .string(spec.name), "required": .bool(spec.required), "schema": schema(spec.types, names: spec.names)]
    }

    /// JSON Schema for a param of `types` that takes `names` as a string (as an array: as
    /// its elements); with other types besides a string, one of them.
    private static func schema(_ types: [ParamType], names: [String]) -> JSONValue {
        guard !names.isEmpty else { return schema(types) }
        let enumerated: JSONValue = ["type": "string", "enum": .array(names.map { .string($0) })]
        if types == [.array] { return ["type": "array", "items": enumerated] }
        if types == [.string] { return enumerated }
        return ["anyOf": .array([enumerated] + types.filter { $0 != .string }.map { schema([$0]) })]
    }

    /// JSON Schema for a param of `types`: one type, a list, or `{}` for any value.
    private static func schema(_ types: [ParamType]) -> JSONValue {
        switch types.count {
        case 0: return .object([:])
        case 1: return ["type": .string(types[0].rawValue)]
        default: return ["type": .array(types.map { .string($0.rawValue) })]
        }
    }
}
