// `Indirect` keeps an entry's big parts out of line and must behave exactly as the value
// stored inline: copies are independent, equality and hashing are the value's.

import Testing
@testable import PresentCore

@Suite struct IndirectTests {
    struct Holder: Hashable {
        @Indirect var values: [Int] = [1, 2, 3]
    }

    @Test func aChangedCopyLeavesTheOriginalAlone() {
        let original = Holder()
        var copy = original
        copy.values.append(4)
        copy.values[0] = 9
        #expect(original.values == [1, 2, 3])
        #expect(copy.values == [9, 2, 3, 4])
        #expect(original != copy)
    }

    @Test func equalValuesInSeparateBoxesAreEqualAndHashAlike() {
        var a = Holder(), b = Holder()
        a.values = [5]
        b.values = [5]
        #expect(a == b)
        #expect(Set([a, b]).count == 1)
        b.values = [6]
        #expect(a != b)
    }

    /// A copy of an entry is what the stack's functions keep on the machine stack: its big
    /// parts (the request, the motion, a swipe) stay out of line.
    @Test func anEntryIsSmallWithItsRequestMotionAndSwipeOutOfLine() {
        #expect(MemoryLayout<Presentation>.size > 512, "the request alone is big: the bound below means something")
        #expect(MemoryLayout<Entry>.size <= 384, "Entry is \(MemoryLayout<Entry>.size) bytes inline")
    }

    @Test func anEntryChangedInTheStackLeavesItsEarlierCopyAlone() {
        var stack = ModalStack(container: phone)
        stack.show(sheet("a", duration: 0.4), at: 0)
        let before = stack.entries[0]
        stack.advance(to: 1)   // the transition ends: the motion is dropped
        #expect(before.animation != nil)
        #expect(stack.entries[0].animation == nil)
        #expect(before.state == .presenting && stack.entries[0].state == .presented)
    }
}
