// Right to left: a container's layout direction mirrors what is leading and trailing — a
// slide-in panel's edge, the slide that brings it and the swipe that takes it away, an
// overlay's corner — while left and right keep their physical meaning, and a change of
// direction re-lays out.

import Testing
@testable import PresentCore

@Suite("Layout direction")
struct LayoutDirectionTests {
    static let rtl = Container(size: phone.size, safeArea: phone.safeArea, scale: 3, layoutDirection: .rightToLeft)

    static func panel(_ edge: Edge, follows: Bool) -> Presentation {
        sheet("panel", style: .slideIn(edge: edge, fraction: 0.5, followsLayoutDirection: follows),
              transition: .slide, dismissOnSwipe: true)
    }

    @Test func leadingAndTrailingMirrorInRightToLeftAndLeftAndRightDoNot() {
        let leading = PresentationStyle.slideIn(edge: .left, fraction: 0.5, followsLayoutDirection: true)
        let trailing = PresentationStyle.slideIn(edge: .right, fraction: 0.5, followsLayoutDirection: true)
        #expect(leading.frame(in: phone) == Rect(x: 0, y: 0, width: 195, height: 844))
        #expect(leading.frame(in: Self.rtl) == Rect(x: 195, y: 0, width: 195, height: 844))
        #expect(trailing.frame(in: Self.rtl) == Rect(x: 0, y: 0, width: 195, height: 844))
        #expect(PresentationStyle.slideIn(edge: .left, fraction: 0.5).frame(in: Self.rtl).minX == 0, "left stays left")
    }

    @Test func theSlideInAndTheSwipeOutFollowTheLeadingEdge() {
        var stack = ModalStack(container: Self.rtl)
        stack.show(Self.panel(.left, follows: true), at: 0)
        // Coming in from the right (the leading edge), linear over 0.4 s: halfway at 0.2.
        #expect(stack.scene(at: 0.2).layers.last?.frame.minX == 195 + 195.0 / 2)
        stack.advance(to: 1)
        _ = stack.swipe(.began, translation: .zero, at: 1)
        let out = stack.swipe(.changed, translation: Point(x: 100, y: 0), at: 1.1)
        #expect(out.outcome == .tracking && out.progress > 0, "dragged towards the right, its way out")
        #expect(stack.scene(at: 1.1).layers.last?.frame.minX == 295)
        let back = stack.swipe(.changed, translation: Point(x: -100, y: 0), at: 1.2)
        #expect(back.progress == 0, "towards the left is against the way out")
    }

    @Test func aChangeOfDirectionReLaysOutWhatFollowsIt() {
        var stack = ModalStack(container: phone)
        stack.show(Self.panel(.left, follows: true), at: 0)
        stack.show(sheet("fixed", style: .slideIn(edge: .left, fraction: 0.3), transition: .slide), at: 0)
        stack.advance(to: 2)
        stack.setContainer(Self.rtl, duration: 0, at: 2)
        #expect(stack.entries[0].restState(in: stack.container).frame.minX == 195)
        #expect(stack.entries[1].restState(in: stack.container).frame.minX == 0)
    }

    @Test func cornerOverlaysStackDownTheLeadingOrTrailingSideAndMirror() {
        func toast(_ id: String, _ position: OverlayPosition) -> Presentation {
            var p = sheet(id, style: .custom(CustomLayout(width: .points(200), height: .points(50))), duration: 0)
            p.level = .overlay
            p.overlay = OverlayPlacement(position: position)
            return p
        }
        var ltr = ModalStack(container: phone)
        ltr.show(toast("a", .trailing), at: 0)
        ltr.show(toast("b", .trailing), at: 0)
        ltr.show(toast("c", .leading), at: 0)
        ltr.advance(to: 5)
        let frames = Dictionary(uniqueKeysWithValues: ltr.entries.map { ($0.id, $0.restState(in: phone).frame) })
        #expect(
            frames["b"] == Rect(x: 390 - 8 - 200, y: 47 + 8, width: 200, height: 50),
            "the newest in the trailing corner")
        #expect(
            frames["a"]?.minX == 182 && frames["a"]?.minY == 47 + 8 + 50 + ltr.configuration.overlaySpacing,
            "the older below it")
        #expect(frames["c"]?.minX == 8 && frames["c"]?.minY == 47 + 8, "the leading corner stacks on its own")
        ltr.setContainer(Self.rtl, duration: 0, at: 5)
        #expect(
            ltr.entries.first { $0.id == "c" }?.restState(in: Self.rtl).frame.minX == 182,
            "right to left: leading is right")
        #expect(ltr.entries.first { $0.id == "b" }?.restState(in: Self.rtl).frame.minX == 8)
    }
}
