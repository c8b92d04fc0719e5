import Testing
import PresentCore

/// The three reference screens, without safe areas unless a test adds them.
private let portrait = Container(size: Size(width: 390, height: 844))
private let landscapePhone = Container(size: Size(width: 844, height: 390))
private let largeTablet = Container(size: Size(width: 1024, height: 1366))

private func rect(_ x: Double, _ y: Double, _ w: Double, _ h: Double) -> Rect {
    Rect(x: x, y: y, width: w, height: h)
}

/// Equal to 1e-9 (thirds are not exact in binary).
private func close(_ a: Rect, _ b: Rect) -> Bool {
    [a.minX - b.minX, a.minY - b.minY, a.width - b.width, a.height - b.height].allSatisfy { abs($0) < 1e-9 }
}

private func slideIn(_ edge: Edge) -> PresentationStyle {
    .slideIn(edge: edge, fraction: PresentationStyle.defaultSlideInFraction)
}

@Suite("Presentation style layout")
struct LayoutTests {
    // Each row: style, expected frame, worked out from the formulas in the comments.

    @Test("Portrait phone, 390 × 844", arguments: [
        (PresentationStyle.fullScreen, rect(0, 0, 390, 844)),
        (.overFullScreen, rect(0, 0, 390, 844)),
        // 270 × 180 centred: ((390 − 270)/2, (844 − 180)/2).
        (.alert, rect(60, 332, 270, 180)),
        // ⌊390 − 60⌋ = 330 × ⌊0.66·844 = 557.04⌋ = 557, centred: (30, 422 − 278.5).
        (.popup, rect(30, 143.5, 330, 557)),
        // 390 × ⌊844/2⌋ on the top edge; on the bottom edge y = 844 − 422.
        (.topHalf, rect(0, 0, 390, 422)),
        (.bottomHalf, rect(0, 422, 390, 422)),
        // 2/3 of 390 = 260 wide; 2/3 of 844 = 562.67 high.
        (slideIn(.left), rect(0, 0, 260, 844)),
        (slideIn(.right), rect(130, 0, 260, 844)),
        (slideIn(.top), rect(0, 0, 390, 844 * 2 / 3)),
        (slideIn(.bottom), rect(0, 844 / 3, 390, 844 * 2 / 3)),
        (.slideIn(edge: .right, fraction: 0.5), rect(195, 0, 195, 844)),
    ])
    func portraitPhone(style: PresentationStyle, expected: Rect) {
        #expect(close(style.frame(in: portrait), expected), "\(style.name)")
    }

    @Test("Landscape phone, 844 × 390", arguments: [
        (PresentationStyle.fullScreen, rect(0, 0, 844, 390)),
        (.overFullScreen, rect(0, 0, 844, 390)),
        // ((844 − 270)/2, (390 − 180)/2).
        (.alert, rect(287, 105, 270, 180)),
        // 784 × ⌊257.4⌋ = 257, centred: (30, 195 − 128.5).
        (.popup, rect(30, 66.5, 784, 257)),
        (.topHalf, rect(0, 0, 844, 195)),
        (.bottomHalf, rect(0, 195, 844, 195)),
        // 2/3 of 844 = 562.67 wide; 2/3 of 390 = 260 high.
        (slideIn(.left), rect(0, 0, 844 * 2 / 3, 390)),
        (slideIn(.right), rect(844 / 3, 0, 844 * 2 / 3, 390)),
        (slideIn(.top), rect(0, 0, 844, 260)),
        (slideIn(.bottom), rect(0, 130, 844, 260)),
    ])
    func landscape(style: PresentationStyle, expected: Rect) {
        #expect(close(style.frame(in: landscapePhone), expected), "\(style.name)")
    }

    @Test("Tablet, 1024 × 1366", arguments: [
        (PresentationStyle.fullScreen, rect(0, 0, 1024, 1366)),
        (.overFullScreen, rect(0, 0, 1024, 1366)),
        // ((1024 − 270)/2, (1366 − 180)/2).
        (.alert, rect(377, 593, 270, 180)),
        // 964 × ⌊901.56⌋ = 901, centred: (30, 683 − 450.5).
        (.popup, rect(30, 232.5, 964, 901)),
        (.topHalf, rect(0, 0, 1024, 683)),
        (.bottomHalf, rect(0, 683, 1024, 683)),
        (slideIn(.left), rect(0, 0, 1024 * 2 / 3, 1366)),
        (slideIn(.right), rect(1024 / 3, 0, 1024 * 2 / 3, 1366)),
        (slideIn(.top), rect(0, 0, 1024, 1366 * 2 / 3)),
        (slideIn(.bottom), rect(0, 1366 / 3, 1024, 1366 * 2 / 3)),
    ])
    func tabletLayout(style: PresentationStyle, expected: Rect) {
        #expect(close(style.frame(in: largeTablet), expected), "\(style.name)")
    }

    @Test("Custom sizes and positions", arguments: [
        // Defaults are the popup: ⌊W − 60⌋ × ⌊0.66·H⌋, centred.
        (portrait, CustomLayout(), rect(30, 143.5, 330, 557)),
        // ⌊390/2⌋ × 300 centred at (195, 844/4 − 1 = 210).
        (portrait, CustomLayout(width: .half, height: .points(300), position: .topCenter),
         rect(97.5, 60, 195, 300)),
        // ⌊0.8·390⌋ = 312 × ⌊844 − 200⌋ = 644 centred at (195, 3·844/4 = 633).
        (portrait, CustomLayout(width: .fluid(0.8), height: .sideMargin(100), position: .bottomCenter),
         rect(39, 311, 312, 644)),
        // 390 × ⌊211⌋ with its top-left corner given.
        (portrait, CustomLayout(width: .full, height: .fluid(0.25), position: .origin(Point(x: 0, y: 633))),
         rect(0, 633, 390, 211)),
        // 200 × 100 centred on (100, 700).
        (portrait, CustomLayout(width: .points(200), height: .points(100), position: .point(Point(x: 100, y: 700))),
         rect(0, 650, 200, 100)),
        // ⌊390 − 31⌋ = 359 × ⌊0.333·844 = 281.05⌋ = 281, centred: (15.5, 422 − 140.5).
        (portrait, CustomLayout(width: .sideMargin(15.5), height: .fluid(0.333)),
         rect(15.5, 281.5, 359, 281)),
        // Presentr's topCenter puts a half-height view 1 pt above the top: centre y 390/4 − 1.
        (landscapePhone, CustomLayout(width: .half, height: .half, position: .topCenter),
         rect(211, -1, 422, 195)),
        (largeTablet, CustomLayout(width: .fluid(0.5), height: .fluid(0.5)), rect(256, 341.5, 512, 683)),
    ])
    func customLayouts(container: Container, layout: CustomLayout, expected: Rect) {
        #expect(close(PresentationStyle.custom(layout).frame(in: container), expected))
    }

    @Test("Safe area: the layout runs in the safe bounds (0, 47, 390, 763) of the phone", arguments: [
        (PresentationStyle.fullScreen, rect(0, 47, 390, 763)),
        // (60, 47 + (763 − 180)/2).
        (.alert, rect(60, 338.5, 270, 180)),
        // 330 × ⌊0.66·763 = 503.58⌋ = 503 at (30, 47 + 381.5 − 251.5).
        (.popup, rect(30, 177, 330, 503)),
        // ⌊763/2⌋ = 381 high, on the safe area's top and bottom edges (810 = 844 − 34).
        (.topHalf, rect(0, 47, 390, 381)),
        (.bottomHalf, rect(0, 429, 390, 381)),
        (slideIn(.bottom), rect(0, 47 + 763.0 / 3, 390, 763 * 2 / 3)),
        (slideIn(.left), rect(0, 47, 260, 763)),
    ])
    func safeArea(style: PresentationStyle, expected: Rect) {
        #expect(close(style.frame(in: .phonePortrait, respectingSafeArea: true), expected), "\(style.name)")
        // Ignoring it, the phone lays out as the plain portrait screen.
        #expect(style.frame(in: .phonePortrait) == style.frame(in: portrait))
    }

    @Test("Safe area in landscape: (47, 0, 750, 369)")
    func safeAreaLandscape() {
        let phone = Container(size: Size(width: 844, height: 390),
                              safeArea: EdgeInsets(top: 0, left: 47, bottom: 21, right: 47))
        // 690 × ⌊0.66·369 = 243.54⌋ = 243 at (47 + 30, 184.5 − 121.5).
        #expect(PresentationStyle.popup.frame(in: phone, respectingSafeArea: true) == rect(77, 63, 690, 243))
        // (47 + (750 − 270)/2, (369 − 180)/2).
        #expect(PresentationStyle.alert.frame(in: phone, respectingSafeArea: true) == rect(287, 94.5, 270, 180))
        #expect(PresentationStyle.bottomHalf.frame(in: phone, respectingSafeArea: true) == rect(47, 185, 750, 184))
    }

    @Test("bottomHalf stays on the bottom edge when H is odd")
    func bottomHalfOddHeight() {
        let odd = Container(size: Size(width: 390, height: 845))
        // ⌊845/2⌋ = 422 high; Presentr's centre at 3H/4 would put it at 422.75, ending at 844.75.
        #expect(PresentationStyle.bottomHalf.frame(in: odd) == rect(0, 423, 390, 422))
    }

    @Test("Size classes derived from the size", arguments: [
        (Size(width: 390, height: 844), SizeClass.compact, SizeClass.regular),
        (Size(width: 844, height: 390), .compact, .compact),  // landscape phone: compact both ways
        (Size(width: 1024, height: 1366), .regular, .regular),
        (Size(width: 1366, height: 1024), .regular, .regular),
        (Size(width: 507, height: 1024), .compact, .regular),  // iPad split view
        (Size(width: 600, height: 500), .regular, .regular),   // thresholds are exclusive
        (Size(width: 599.5, height: 499.5), .compact, .compact),
    ])
    func sizeClasses(size: Size, horizontal: SizeClass, vertical: SizeClass) {
        let container = Container(size: size)
        #expect(container.horizontalSizeClass == horizontal)
        #expect(container.verticalSizeClass == vertical)
    }

    @Test func explicitSizeClassesWin() {
        let container = Container(size: Size(width: 390, height: 844),
                                  horizontalSizeClass: .regular, verticalSizeClass: .compact)
        #expect(container.horizontalSizeClass == .regular && container.verticalSizeClass == .compact)
    }

    @Test func styleProperties() {
        #expect(PresentationStyle.fullScreen.hidesPresenter)
        #expect(!PresentationStyle.overFullScreen.hidesPresenter)
        #expect(
            slideIn(.left).slideEdge(in: .leftToRight) == .left
                && PresentationStyle.popup.slideEdge(in: .rightToLeft) == .bottom)
        #expect(slideIn(.left).slideEdge(in: .rightToLeft) == .left, "left keeps its physical meaning")
        #expect(PresentationStyle.custom(CustomLayout()).name == "custom")
        #expect(slideIn(.top).name == "slideIn")
    }

    @Test func keyboardFrame() {
        #expect(portrait.keyboardFrame == nil)
        var withKeyboard = portrait
        withKeyboard.keyboardHeight = 336
        #expect(withKeyboard.keyboardFrame == rect(0, 508, 390, 336))
    }
}

@Suite("Layout never goes negative")
struct NegativeSizeTests {
    @Test func aMarginWiderThanTheContainerGivesAnEmptyFrame() {
        let style = PresentationStyle.custom(CustomLayout(width: .sideMargin(300), height: .sideMargin(500)))
        let frame = style.frame(in: Container(size: Size(width: 390, height: 844)))
        #expect(frame.width == 0 && frame.height == 0)
        #expect(frame.midX == 195 && frame.midY == 422)
    }

    @Test func aPopupInATinyContainer() {
        let frame = PresentationStyle.popup.frame(in: Container(size: Size(width: 40, height: 40)))
        #expect(frame.width == 0 && frame.height == 26)
    }
}
