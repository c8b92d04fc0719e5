// What a presentation shows: the presented view controller's content, which presentd
// carries to renderers and answers for (UIAlertController's title, message, actions
// and text fields). The stack reads only what decides behaviour — the actions' roles,
// which fields exist, the preferred size; everything else is passed through untouched.

/// A freedesktop icon-theme name, or an absolute path to a PNG or SVG file.
public enum Icon: Hashable, Sendable {
    case name(String)
    case path(String)
}

/// UIAlertAction.Style: how a renderer draws a button, and what keys it answers to.
public enum ActionRole: String, Sendable, CaseIterable {
    /// Enter activates it (UIAlertController's preferredAction); drawn with emphasis.
    case `default`
    /// Escape and back activate it; it leaves things unchanged.
    case cancel
    /// It changes or deletes data; drawn in red.
    case destructive
}

/// A button.
public struct ContentAction: Hashable, Sendable {
    public var id: String
    public var title: String
    /// nil: a plain button.
    public var role: ActionRole?
    /// Activating it dismisses the entry (with reason `action`).
    public var dismisses: Bool
    public init(id: String, title: String, role: ActionRole? = nil, dismisses: Bool = true) {
        self.id = id; self.title = title; self.role = role; self.dismisses = dismisses
    }
}

/// What a text field takes.
public enum FieldKind: String, Sendable, CaseIterable {
    case text, secure, number
}

/// A text field (UIAlertController.addTextField).
public struct ContentField: Hashable, Sendable {
    public var id: String
    public var kind: FieldKind
    public var placeholder: String?
    /// The initial value, and what an answer reports when the renderer sent none.
    public var value: String?
    public init(id: String, kind: FieldKind = .text, placeholder: String? = nil, value: String? = nil) {
        self.id = id; self.kind = kind; self.placeholder = placeholder; self.value = value
    }
}

/// A progress bar.
public enum Progress: Hashable, Sendable {
    /// A fraction done, 0…1.
    case fraction(Double)
    /// Busy, for an unknown time (`"progress": null`).
    case indeterminate
}

/// The app's own window, for a renderer that can embed it: a Wayland app_id, an
/// xdg-foreign handle, an X11 window id, or a name a shell knows. Opaque to presentd.
public struct Surface: Hashable, Sendable {
    public var appID: String?
    public var handle: String?
    public init(appID: String? = nil, handle: String? = nil) { self.appID = appID; self.handle = handle }
}

/// How assistive technology presents the entry (WAI-ARIA dialogs, UIAccessibility).
public struct Accessibility: Hashable, Sendable {
    /// aria-live: polite waits for a pause, assertive interrupts.
    public enum Announce: String, Sendable, CaseIterable { case polite, assertive }
    public var label: String?
    public var hint: String?
    public var announce: Announce?
    public init(label: String? = nil, hint: String? = nil, announce: Announce? = nil) {
        self.label = label; self.hint = hint; self.announce = announce
    }
}

/// The content of a presentation: a plain label (the string form), or the parts of a
/// dialog. Renderers draw it; the stack answers for its actions and fields.
public struct Content: Hashable, Sendable, ExpressibleByStringLiteral {
    /// The string form (`"content": "saved"`): an opaque label and nothing else.
    public var label: String?
    public var title: String?
    public var message: String?
    /// message as Pango markup (`b`, `i`, `u`, `a` and entities), present only with message:
    /// what a renderer that draws markup shows. Opaque to presentd beyond its length.
    public var messageMarkup: String?
    /// The name of the app it comes from (a notification's app_name), drawn small above the
    /// title by renderers that show where a card comes from.
    public var appName: String?
    public var icon: Icon?
    public var actions: [ContentAction]
    public var fields: [ContentField]
    public var progress: Progress?
    public var surface: Surface?
    public var accessibility: Accessibility?

    public init(title: String? = nil, message: String? = nil, icon: Icon? = nil, actions: [ContentAction] = [],
                fields: [ContentField] = [], progress: Progress? = nil, surface: Surface? = nil,
                accessibility: Accessibility? = nil) {
        self.title = title; self.message = message; self.icon = icon; self.actions = actions
        self.fields = fields; self.progress = progress; self.surface = surface; self.accessibility = accessibility
    }

    /// The string form.
    public init(label: String) {
        self.init()
        self.label = label
    }

    public init(stringLiteral label: String) { self.init(label: label) }

    public func action(id: String) -> ContentAction? { actions.first { $0.id == id } }
    public func action(role: ActionRole) -> ContentAction? { actions.first { $0.role == role } }
    public func field(id: String) -> ContentField? { fields.first { $0.id == id } }
}

/// UIKit's preferredContentSize: the size the content would like, per dimension. A
/// custom style's `content` dimension uses it (a missing one falls back to `default`).
public struct PreferredContentSize: Hashable, Sendable {
    public var width: Double?
    public var height: Double?
    public init(width: Double? = nil, height: Double? = nil) { self.width = width; self.height = height }
}

/// Leave on its own, `after` seconds after it finished presenting (SwiftEntryKit's
/// displayDuration), with reason `timeout`.
public struct AutoDismiss: Hashable, Sendable {
    public var after: Double
    /// The countdown stops while a swipe drags the entry or one of its fields has focus.
    public var pauseWhileInteracting: Bool
    public init(after: Double, pauseWhileInteracting: Bool = true) {
        self.after = after; self.pauseWhileInteracting = pauseWhileInteracting
    }
}

/// An auto-dismiss countdown in progress: what is left, and since when it runs (nil
/// while paused). Nothing here reads a clock; the stack moves it with its own time.
struct Countdown: Hashable, Sendable {
    var remaining: Double
    var runningSince: Double?

    /// When it reaches zero if nothing pauses it; nil while paused.
    var deadline: Double? { runningSince.map { $0 + remaining } }

    mutating func pause(at t: Double) {
        guard let since = runningSince else { return }
        remaining = max(0, remaining - (t - since))
        runningSince = nil
    }

    mutating func resume(at t: Double) {
        if runningSince == nil { runningSince = t }
    }
}
