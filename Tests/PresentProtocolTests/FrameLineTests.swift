// The frame notification written straight into bytes (CoreEncoding.frameLine, at every
// tick) is the very text of the frame as a value (CoreEncoding.frame, serialised), for
// every layer option and for strings that need escaping.

import Testing
import PresentCore
import PresentJSON
import PresentProtocol

/// A stack with a bottom sheet that slides in from 0 to 0.4 s, over a dimming layer.
func slidingSheet() throws -> ModalStack {
    var stack = ModalStack()
    _ = try stack.present(Presentation(id: "sheet", style: .bottomHalf,
                                       transition: Transition(kind: .coverVertical, duration: 0.4, timing: .system)),
                          owner: 1, at: 0)
    return stack
}

@Suite("Frame lines")
struct FrameLineTests {
    /// Scenes of a real stack mid-transition, then with every optional layer member set
    /// (and an entry id that must be escaped), then with each set alone.
    static func scenes() throws -> [Scene] {
        let stack = try slidingSheet()
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
                let value = RPCEncoding.notification(method: "frame", params: CoreEncoding.frame(scene, seq: seq, output: output))
                let line = CoreEncoding.frameLine(scene, seq: seq, output: output)
                #expect(String(decoding: line, as: UTF8.self) == String(decoding: value.serializedLine(), as: UTF8.self),
                        "scene \(index), output \(output ?? "none")")
                #expect(try JSONValue.parse(line.dropLast()) == value, "the line parses back to the value")
            }
        }
    }

    @Test func everyOptionalMemberIsWritten() throws {
        let dressed = try Self.scenes()[4]
        let text = String(decoding: CoreEncoding.frameLine(dressed, seq: 1, output: "main"), as: UTF8.self)
        for member in ["\"color\":", "\"blur\":\"dark\"", "\"shadow\":{", "\"contentRevision\":7", "\"tintDimmed\":true",
                       "\"clip\":{\"x\":1.0,\"y\":2.5,\"width\":300.0,\"height\":400.125}", #"quote\"back\\slash\ttab\u0001é"#] {
            #expect(text.contains(member), "\(member) in \(text)")
        }
        #expect(text.hasPrefix(#"{"jsonrpc":"2.0","method":"frame","params":{"seq":1,"#) && text.hasSuffix("\"output\":\"main\"}}\n"))
    }
}

@Suite("Frame lines written from the last frame's text")
struct FrameMemoTests {
    /// Frames one after the other, each changing one thing of one layer from the frame
    /// before it (every member of every run a layer is written in, numbers to a value that
    /// is equal but written differently), layers coming and going.
    static func frames() throws -> [Scene] {
        let stack = try slidingSheet()
        var frames = [0.0, 1.0 / 120, 2.0 / 120, 0.2, 0.4, 1].map { stack.scene(at: $0) }
        let changes: [(inout Layer) -> Void] = [
            { $0.entryID = "other" }, { $0.role = .dimming }, { $0.level = .alert },
            { $0.frame.origin.x = 0 }, { $0.frame.origin.x = -0.0 }, { $0.frame.size.height += 1 },
            { $0.alpha = 0 }, { $0.alpha = -0.0 }, { $0.scale = 0.5 }, { $0.rotation = -0.0 }, { $0.cornerRadius = 9 },
            { $0.color = .black }, { $0.color = Color(red: 0, green: 0, blue: 0, alpha: 0.5) }, { $0.blur = .dark },
            { $0.shadow = Shadow() }, { $0.shadow?.offset.width = -0.0 }, { $0.shadow?.color = Color(red: 1, green: 1, blue: 1) },
            { $0.contentRevision = 1 }, { $0.contentRevision = 2 }, { $0.tintDimmed = true },
            { $0.clip = Rect(x: 0, y: 0, width: 10, height: 10) }, { $0.clip?.origin.y = -0.0 },
        ]
        var scene = stack.scene(at: 0.13)
        frames.append(scene)
        for (index, change) in changes.enumerated() {
            change(&scene.layers[index % scene.layers.count])
            frames.append(scene)
        }
        frames.append(contentsOf: [stack.scene(at: 0.13), stack.scene(at: 1)])
        var fewer = stack.scene(at: 0.2)
        fewer.layers.removeFirst()
        frames.append(contentsOf: [fewer, stack.scene(at: 0.2)])
        return frames
    }

    @Test func eachFrameIsTheTextOfItsValue() throws {
        var memo = FrameMemo()
        for (index, scene) in try Self.frames().enumerated() {
            let output = index % 7 == 3 ? nil : index % 5 == 0 ? "hdmi" : "main"   // the screen's name, or none
            let value = RPCEncoding.notification(method: "frame", params: CoreEncoding.frame(scene, seq: UInt64(index), output: output))
            let line = CoreEncoding.frameLine(scene, seq: UInt64(index), output: output, memo: &memo)
            #expect(String(decoding: line, as: UTF8.self) == String(decoding: value.serializedLine(), as: UTF8.self),
                    "frame \(index)")
        }
    }
}
