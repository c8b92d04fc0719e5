// Several screens: which screen a request concerns, and adding and removing screens.
//
// A request names its screen with `output` (absent: `main`); a request about an entry
// goes to the screen that holds it, and a present into a context to the screen that
// holds the context. Ids and context names are unique across screens, so a by-id method
// never needs an `output`. Arbitration (queue, priority, precedence, dedupe) is a
// screen's own: each has its own ModalStack.

import PresentCore
import PresentJSON
import PresentProtocol

extension Daemon {
    // MARK: Routing

    /// The screen `name` names (nil: main); an unknown one is refused naming the field.
    func screen(_ name: String?) throws(RPCError) -> Screen {
        guard let name else { return main }
        guard let screen = screens.named(name) else {
            throw .invalidParams(field: "output", reason: "no output \"\(name)\"; outputs: \(outputNames)")
        }
        return screen
    }

    /// The screen holding entry `id`; −32004 when none does.
    func screen(holdingEntry id: String) throws(RPCError) -> Screen {
        guard let screen = screens.holding(entry: id) else { throw Self.notFound(id) }
        return screen
    }

    /// The screen holding context `name`; none is refused listing every screen's contexts.
    func screen(holdingContext name: String) throws(RPCError) -> Screen {
        if let screen = screens.holding(context: name) { return screen }
        let known = screens.flatMap { $0.stack.contexts.keys }.sorted().map { "\"\($0)\"" }
        throw .invalidParams(field: "context", reason: "no presentation context \"\(name)\"; "
                + (known.isEmpty
                    ? "the shell has defined none (defineContext)" : "defined: \(known.joined(separator: ", "))"))
    }

    /// Where a present goes: its `output`, else the screen of its context, else main. An
    /// id another screen holds is refused (ids are unique across the daemon).
    func screen(presenting request: PresentRequest) throws(RPCError) -> Screen {
        let presentation = request.presentation
        let target: Screen
        if request.output == nil, let context = presentation.context {
            target = screens.holding(context: context) ?? main   // main reports an unknown context
        } else {
            target = try screen(request.output)
        }
        if let id = presentation.id, let holder = screens.holding(entry: id), holder !== target {
            throw .invalidParams(field: "id", reason: "\"\(id)\" is already on output \"\(holder.name)\"")
        }
        return target
    }

    /// A context name is the daemon's, not a screen's: one defined on another screen is
    /// refused rather than silently duplicated.
    func checkContextName(_ name: String, for screen: Screen) throws(RPCError) {
        guard let holder = screens.holding(context: name), holder !== screen else { return }
        throw .invalidParams(
            field: "name", reason: "\"\(name)\" is a context of output \"\(holder.name)\"; remove it there first")
    }

    private var outputNames: String {
        screens.map { "\"\($0.name)\"" }.joined(separator: ", ")
    }

    // MARK: Adding and removing screens

    /// A new screen from a definition (the configuration's, or addOutput's); its clock
    /// starts when the daemon runs.
    @discardableResult
    func addScreen(_ definition: OutputDefinition) -> Screen {
        let base = Container(size: Size(width: definition.container.width, height: definition.container.height))
        let screen = Screen(name: definition.name,
                            stack: ModalStack(container: definition.container.applied(to: base),
                                              configuration: configuration.stack, time: now,
                                              reducedMotion: configuration.reducedMotion),
                            fps: definition.fps)
        screens.add(screen)
        return screen
    }

    /// `addOutput`: a new screen, or new settings for an existing one (a shell that
    /// restarts says again what its screens are).
    func addOutput(_ definition: OutputDefinition) throws(RPCError) -> JSONValue {
        if let screen = screens.named(definition.name) {
            screen.stack.setContainer(definition.container.applied(to: screen.stack.container), at: now)
            if screen.setOwnFPS(definition.fps) { restartFrames(of: screen) }
        } else {
            guard screens.count < configuration.limits.maxOutputs else {
                throw .limitExceeded(
                    "the daemon has \(screens.count) outputs; at most \(configuration.limits.maxOutputs)",
                                     limit: configuration.limits.maxOutputs)
            }
            let screen = addScreen(definition)
            do {
                try startClock(of: screen)
            } catch {
                screens.remove(screen)
                throw RPCError(
                    code: .internalError, message: "cannot start the frame clock of \"\(definition.name)\": \(error)")
            }
            log.info("output \(definition.name) added (\(definition.container.width)×\(definition.container.height), "
                     + "\(screen.fps(daemonFPS: configuration.fps)) fps)")
        }
        outputsChanged()
        return ["outputs": outputList()]
    }

    /// `removeOutput`: the screen goes, and its entries with it (reason `outputGone`,
    /// at once: there is no screen left to animate them on).
    func removeOutput(_ name: String) throws(RPCError) -> JSONValue {
        guard name != Screen.mainName else {
            throw .invalidParams(field: "name", reason: "\"main\" is the screen every daemon has; it cannot be removed")
        }
        guard let screen = screens.named(name) else {
            throw .invalidParams(field: "name", reason: "no output \"\(name)\"; outputs: \(outputNames)")
        }
        let ids = screen.stack.dismissAll(animated: false, reason: .outputGone, at: now)
        publishEvents()   // its entries' last events, while subscribers can still be told
        screens.remove(screen)
        log.info("output \(name) removed" + (ids.isEmpty ? "" : "; dismissing \(ids.joined(separator: ", "))"))
        outputsChanged()
        saveStateSoon()
        return ["dismissed": .array(ids.map { .string($0) })]
    }

    /// Every screen, main first: name, container, frame rate.
    func outputList() -> JSONValue {
        .array(screens.map { screen in
            ["name": .string(screen.name), "container": CoreEncoding.container(screen.stack.container),
             "fps": .int(Int64(screen.fps(daemonFPS: configuration.fps)))]
        })
    }

    /// Renderers hear that the screens changed: an `outputs` notification on the `stack`
    /// topic (a new screen has nothing on its stack, so no `stack` notification says so).
    private func outputsChanged() {
        broadcast(.stack, method: "outputs") { ["outputs": outputList()] }
    }
}
