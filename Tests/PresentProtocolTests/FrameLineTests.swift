// The frame notification written straight into bytes (CoreEncoding.frameLine, at every
// tick) is the very text of the frame as a value (CoreEncoding.frame, serialised), for
// every layer option and for strings that need escaping.

import Testing
import PresentCore
import PresentJSON
import PresentProtocol

@Suite("Frame lines")
struct FrameLineTests {
    /// Scenes of a real stack mid-transition, then with every optional layer member set
    /// (and an entry id that must be escaped), then with each set alone.
    static func scenes() throws -> [Scene] {
        var stack = ModalStack()
        _ = try stack.present(Presentation(id: "sheet", style: .bottomHalf,
                transition: Transition(kind: .coverVertical, duration: 0.4, timing: .system)),
                              owner: 1, at: 0)
        var scenes = [0.0, 0.13, 0.4, 1].map { stack.scene(at: $0) }
        var dressed = stack.scene(at: 0.2)
        dressed.layers = dressed.layers.enumerated().map { index, layer in
            var layer = layer
            layer.entryID = "quote\"back\\slash\ttab\u{1}é"
            layer.color = Color(red: 0.2, green: 0.4, blue: 0.6, alpha: index == 0 ? 0.5 : 1)
            layer.blur = .dark
            layer.shadow = Shadow(opacity: 0.25, radius: 12)
            layer.contentRevision = 7
            layer.tintDimmed = true
            layer.clip = Rect(x: 1, y: 2.5, width: 300, height: 400.125)
            return layer
        }
        scenes.append(dressed)
        // Each optional member alone, on the first layer (the commas around a member
        // that is there and those that are not), with numbers of every spelling.
        let base = stack.scene(at: 0.13)
        let alone: [(inout Layer) -> Void] = [
            { $0.color = Color(red: 1, green: 0.5, blue: 0.05) },
            { $0.color = Color(red: 0, green: 0, blue: 0, alpha: 0.4) },
            { $0.blur = .light },
            { $0.shadow = Shadow(color: Color(red: 0.1, green: 0.2, blue: 0.3, alpha: 0.5), opacity: 0.125, radius: 0,
                                 offset: Size(width: -1.5, height: 1e16)) },
            { $0.contentRevision = 0 },
            { $0.contentRevision = .max },
            { $0.tintDimmed = true },
            { $0.clip = Rect(x: -0.0, y: 0.1 + 0.2, width: 2.5e-8, height: 9007199254740994) },
            { $0.frame = Rect(x: -390, y: 1e-300, width: .leastNonzeroMagnitude, height: .greatestFiniteMagnitude)
              $0.alpha = 1 / 3
              $0.rotation = -.pi },
        ]
        for dress in alone {
            var scene = base
            dress(&scene.layers[0])
            scenes.append(scene)
        }
        var empty = stack.scene(at: 1)
        empty.layers = []
        scenes.append(empty)
        return scenes
    }

    @Test func theLineIsTheTextOfTheValue() throws {
        for (index, scene) in try Self.scenes().enumerated() {
            for output in [nil, "main", "hdmi-\"2\""] {
                let seq = UInt64(index) * 1_000_003 + 1
                let value = RPCEncoding.notification(
                    method: "frame", params: CoreEncoding.frame(scene, seq: seq, output: output))
                let line = CoreEncoding.frameLine(scene, seq: seq, output: output)
                #expect(
                    String(decoding: line, as: UTF8.self) == String(decoding: value.serializedLine(), as: UTF8.self),
                        "scene \(index), output \(output ?? "none")")
                #expect(try JSONValue.parse(line.dropLast()) == value, "the line parses back to the value")
            }
        }
    }

    @Test func everyOptionalMemberIsWritten() throws {
        let dressed = try Self.scenes()[4]
        let text = String(decoding: CoreEncoding.frameLine(dressed, seq: 1, output: "main"), as: UTF8.self)
        for member in [
            "\"color\":", "\"blur\":\"dark\"", "\"shadow\":{", "\"contentRevision\":7", "\"tintDimmed\":true",
            "\"clip\":{\"x\":1.0,\"y\":2.5,\"width\":300.0,\"height\":400.125}", #"quote\"back\\slash\ttab\u0001é"#
        ] {
            #expect(text.contains(member), "\(member) in \(text)")
        }
        #expect(
            text.hasPrefix(#"{"jsonrpc":"2.0","method":"frame","params":{"seq":1,"#)
                && text.hasSuffix("\"output\":\"main\"}}\n"))
    }
}
