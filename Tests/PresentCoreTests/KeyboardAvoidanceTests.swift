import Testing
import PresentCore

private func rect(_ x: Double, _ y: Double, _ w: Double, _ h: Double) -> Rect {
    Rect(x: x, y: y, width: w, height: h)
}

/// A 390 × 844 phoneWithKeyboard with a 336-pt keyboard: keyboardTop = 844 − 336 = 508.
private let phoneWithKeyboard = Container(size: Size(width: 390, height: 844), keyboardHeight: 336)

@Suite("Keyboard avoidance")
struct KeyboardAvoidanceTests {
    @Test("Without a keyboard nothing moves", arguments: KeyboardAvoidance.allCases)
    func noKeyboard(mode: KeyboardAvoidance) {
        let container = Container(size: Size(width: 390, height: 844))
        let popup = PresentationStyle.popup.frame(in: container)
        #expect(mode.frame(for: popup, in: container) == popup)
    }

    @Test func noneNeverMoves() {
        let popup = rect(30, 143.5, 330, 557)
        #expect(KeyboardAvoidance.none.frame(for: popup, in: phoneWithKeyboard) == popup)
    }

    @Test("Alert (60, 332, 270, 180): bottom 512 + buffer 20 − 508 = 24 up, in every mode")
    func smallOverlap() {
        let alert = rect(60, 332, 270, 180)
        #expect(KeyboardAvoidance.moveUp.frame(for: alert, in: phoneWithKeyboard) == rect(60, 308, 270, 180))
        #expect(KeyboardAvoidance.stickToTop.frame(for: alert, in: phoneWithKeyboard) == rect(60, 308, 270, 180))
        #expect(KeyboardAvoidance.compress.frame(for: alert, in: phoneWithKeyboard) == rect(60, 308, 270, 180))
    }

    @Test("Popup (30, 143.5, 330, 557): offset 700.5 + 20 − 508 = 212.5")
    func largeOverlap() {
        let popup = rect(30, 143.5, 330, 557)
        // moveUp goes past the top: 143.5 − 212.5.
        #expect(KeyboardAvoidance.moveUp.frame(for: popup, in: phoneWithKeyboard) == rect(30, -69, 330, 557))
        // The other two stop at y = 20; compress then ends 20 pt above the keyboard: 508 − 40.
        #expect(KeyboardAvoidance.stickToTop.frame(for: popup, in: phoneWithKeyboard) == rect(30, 20, 330, 557))
        #expect(KeyboardAvoidance.compress.frame(for: popup, in: phoneWithKeyboard) == rect(30, 20, 330, 468))
    }

    @Test("A view on the bottom edge gets no buffer: bottomHalf rises by exactly the keyboard")
    func touchingBottomHasNoBuffer() {
        let sheet = PresentationStyle.bottomHalf.frame(in: phoneWithKeyboard)  // (0, 422, 390, 422)
        for mode in [KeyboardAvoidance.moveUp, .stickToTop, .compress] {
            // 844 + 0 − 508 = 336 up.
            #expect(mode.frame(for: sheet, in: phoneWithKeyboard) == rect(0, 86, 390, 422))
        }
        // A view reaching past the bottom edge counts as touching it too: 900 − 508 = 392.
        #expect(
            KeyboardAvoidance.moveUp.frame(for: rect(0, 500, 390, 400), in: phoneWithKeyboard) == rect(0, 108, 390, 400)
        )
    }

    @Test("A floating view keeps 20 pt above the keyboard")
    func bufferBoundary() {
        // Bottom at 488: 488 + 20 − 508 = 0, no change.
        let clear = rect(0, 288, 390, 200)
        for mode in KeyboardAvoidance.allCases { #expect(mode.frame(for: clear, in: phoneWithKeyboard) == clear) }
        // Bottom at 489: 1 pt up.
        #expect(
            KeyboardAvoidance.moveUp.frame(for: rect(0, 289, 390, 200), in: phoneWithKeyboard) == rect(0, 288, 390, 200)
        )
        // Well above the keyboard: untouched.
        #expect(
            KeyboardAvoidance.compress.frame(for: rect(0, 100, 390, 200), in: phoneWithKeyboard)
                == rect(0, 100, 390, 200))
    }

    @Test("Landing exactly on y = 20 counts as clamped (Presentr compares y with 20)")
    func exactClamp() {
        // A bottom sheet 488 high: 844 − 508 = 336 up brings y from 356 to exactly 20.
        let sheet = rect(0, 356, 390, 488)
        #expect(KeyboardAvoidance.stickToTop.frame(for: sheet, in: phoneWithKeyboard) == rect(0, 20, 390, 488))
        #expect(KeyboardAvoidance.compress.frame(for: sheet, in: phoneWithKeyboard) == rect(0, 20, 390, 468))
        // One point less far up is not clamped: the height stays.
        #expect(
            KeyboardAvoidance.compress.frame(for: rect(0, 357, 390, 487), in: phoneWithKeyboard)
                == rect(0, 21, 390, 487))
    }

    @Test("Landscape popup (30, 66.5, 784, 257) with a 200-pt keyboard: 323.5 + 20 − 190 = 153.5")
    func landscape() {
        let container = Container(size: Size(width: 844, height: 390), keyboardHeight: 200)
        let popup = PresentationStyle.popup.frame(in: container)
        #expect(popup == rect(30, 66.5, 784, 257))
        #expect(KeyboardAvoidance.moveUp.frame(for: popup, in: container) == rect(30, -87, 784, 257))
        #expect(KeyboardAvoidance.stickToTop.frame(for: popup, in: container) == rect(30, 20, 784, 257))
        #expect(KeyboardAvoidance.compress.frame(for: popup, in: container) == rect(30, 20, 784, 150))
    }

    @Test("A keyboard taller than the room left compresses to nothing, not below zero")
    func hugeKeyboard() {
        let container = Container(size: Size(width: 390, height: 844), keyboardHeight: 814)  // top at 30
        #expect(KeyboardAvoidance.compress.frame(for: rect(30, 143.5, 330, 557), in: container) == rect(30, 20, 330, 0))
    }

    @Test func namesAndDefaults() {
        #expect(KeyboardAvoidance.allCases.map(\.rawValue) == ["none", "moveUp", "compress", "stickToTop"])
        #expect(KeyboardAvoidance(rawValue: "stickToTop") == .stickToTop)
        #expect(KeyboardAvoidance.defaultDuration == 0.5)
    }
}
