import Foundation


/// All sessions of this process, and the one place their state changes: engine reports and commands both
/// come here, and every change leaves as an event in `events`.
///
/// Thread: LoopActor.
@LoopActor
public final class SessionHost {
    public let engine: any PageEngine
    public let events: EventLog
    public let limits: HostLimits

    private var sessions: [SessionID: Session] = [:]
    /// The session of every page the host knows, including popups not yet shown.
    private var pageSessions: [PageID: SessionID] = [:]
    private var dialogSessions: [DialogID: SessionID] = [:]
    private var ids = IDGenerator()
    var archive = ClosedSessionArchive()
    let clock = ContinuousClock()

    /// Whether someone watches a session on the stream (set by the server); a watched session is never idle.
    public var isWatched: (@LoopActor (SessionID) -> Bool)?

    public init(engine: any PageEngine, limits: HostLimits = HostLimits()) {
        self.engine = engine
        self.limits = limits
        self.events = EventLog(capacity: limits.eventLogCapacity)
        engine.attach(self)
    }

    // MARK: Reading

    public var sessionCount: Int { sessions.count }
    public var pageCount: Int { sessions.values.reduce(0) { $0 + $1.pages.count } }

    /// Every session, oldest first.
    public var snapshots: [SessionSnapshot] {
        sessions.keys.sorted().compactMap { sessions[$0]?.snapshot(engine: engine.name) }
    }

    public func snapshot(of id: SessionID) throws(PagehostError) -> SessionSnapshot {
        try session(id).snapshot(engine: engine.name)
    }

    public func page(_ id: PageID) throws(PagehostError) -> PageState {
        guard let sid = pageSessions[id], let page = sessions[sid]?.pages[id] else { throw .noPage(id) }
        return page
    }

    public func pendingDialog(_ id: DialogID) -> Dialog? {
        dialogSessions[id].flatMap { sessions[$0]?.dialogs[id] }
    }

    func session(_ id: SessionID) throws(PagehostError) -> Session {
        guard let session = sessions[id] else { throw .noSession(id) }
        return session
    }

    /// The session `id` names, if open.
    func openSession(_ id: SessionID) -> Session? { sessions[id] }

    func sessionOf(_ page: PageID) -> Session? {
        pageSessions[page].flatMap { sessions[$0] }
    }

    // MARK: Commands

    /// Opens a session whose main page loads `request`.
    @discardableResult
    public func createSession(_ options: SessionOptions, loading request: LoadRequest) throws(PagehostError) -> SessionSnapshot {
        try SessionHost.validate(options)
        guard sessions.count < limits.maxSessions else {
            throw PagehostError(.limit, "the host already has its maximum of \(limits.maxSessions) sessions")
        }
        let id = ids.session()
        let mainID = ids.page()
        try engine.openSession(id, options: options)
        let session = Session(id: id, options: options, mainPageID: mainID, userAgent: engine.userAgent(of: id))
        var main = PageState(id: mainID, sessionID: id, openerID: nil, role: .main)
        main.visible = true
        main.url = request.displayURL
        session.pages[mainID] = main
        sessions[id] = session
        pageSessions[mainID] = id
        do {
            try engine.openMainPage(mainID, in: id, loading: request)
        } catch {
            sessions[id] = nil
            pageSessions[mainID] = nil
            engine.closeSession(id)
            throw error
        }
        // Announce the session before its pages, as every page is announced: `page.opened`.
        let empty = SessionSnapshot(id: id, label: options.label, engine: engine.name, popupMode: options.popupMode,
                                    createdAt: session.createdAt, pages: [], order: [], userAgent: session.userAgent)
        events.append(.sessionCreated(empty))
        session.isAnnounced = true
        if let page = session.pages[mainID] { events.append(.pageOpened(page)) }
        startTimers(for: session)
        return session.snapshot(engine: engine.name)
    }

    /// Closes every page of a session, then the session.
    public func closeSession(_ id: SessionID) throws(PagehostError) {
        try closeSession(id, reason: .command)
    }

    func closeSession(_ id: SessionID, reason: Event.SessionCloseReason) throws(PagehostError) {
        let session = try session(id)
        session.isClosing = true
        flushRefusals(of: session)
        // In the order they opened: `d10` after `d9`, so by length first.
        for dialog in session.dialogs.values.sorted(by: { ($0.id.rawValue.count, $0.id.rawValue) < ($1.id.rawValue.count, $1.id.rawValue) }) {
            finish(dialog, answer: .dismiss, by: .pageClosed)
        }
        for pending in session.pendingPopups.keys {
            engine.closePage(pending)
            pageSessions[pending] = nil
        }
        session.pendingPopups.removeAll()
        // Top of the stack (or rightmost tab) first, main page last.
        for page in session.order.pages.reversed() {
            removePage(page, from: session, reason: .session)
        }
        engine.closeSession(id)
        sessions[id] = nil
        events.append(reason == .command ? .sessionClosed(id) : .sessionEnded(id, reason: reason))
        // At shutdown nobody will read it: no going through the whole event log once per session.
        guard reason != .shutdown else { return }
        let timeline = events.events { $0.sessionID == id }
        archive.store(id, events: timeline, now: clock.now, limits: limits)
    }

    /// Closes every session (at shutdown).
    public func closeAllSessions() {
        for id in sessions.keys.sorted() {
            try? closeSession(id, reason: .shutdown)
        }
    }

    /// A session's events in order: an open session's from the event log, a closed one's from the archive
    /// (for post-mortem reading, within `closedSessionRetention`). Nil for a session never seen or purged.
    public func timeline(of id: SessionID) -> [Event]? {
        if sessions[id] != nil {
            return events.events { $0.sessionID == id }
        }
        return archive.events(of: id, now: clock.now, limits: limits)
    }

    /// Loads a URL or HTML into a page.
    public func navigate(_ id: PageID, to request: LoadRequest) throws(PagehostError) {
        try touch(id)
        try engine.load(request, in: id)
    }

    /// Answers a pending dialog; the page's script resumes.
    public func answerDialog(_ id: DialogID, with answer: DialogAnswer) throws(PagehostError) {
        guard let dialog = pendingDialog(id) else { throw .noDialog(id) }
        sessions[dialog.sessionID]?.lastActivity = clock.now
        finish(dialog, answer: answer, by: .command)
    }

    /// Runs a function body in a page with named arguments and returns its result.
    ///
    /// While a dialog waits in the session, its pages' scripts are suspended (they share a web process), so
    /// the evaluation is refused at once (conflict) instead of waiting for the answer.
    public func evaluate(_ script: String, arguments: [(String, JSONValue)] = [], in id: PageID) async throws(PagehostError) -> JSONValue {
        let state = try page(id)
        try touch(id)
        if let waiting = sessions[state.sessionID]?.dialogs.values.min(by: { $0.id.rawValue < $1.id.rawValue }) {
            throw PagehostError(.conflict, "a \(waiting.kind.rawValue) dialog (\(waiting.id)) is waiting in session \(state.sessionID): its pages' scripts are suspended until it is answered")
        }
        for (name, _) in arguments where !JavaScriptIdentifier.isValid(name) {
            throw PagehostError(.badRequest, "argument name \"\(name)\" is not a JavaScript identifier")
        }
        return try await engine.evaluate(script, arguments: arguments, in: id)
    }

    /// A PNG of a page.
    public func screenshot(_ id: PageID) async throws(PagehostError) -> [UInt8] {
        try touch(id)
        return try await engine.screenshot(id)
    }

    /// Back, forward, reload or stop in a page.
    public func perform(_ action: HistoryAction, in id: PageID) throws(PagehostError) {
        try touch(id)
        try engine.perform(action, in: id)
    }

    /// Find in page; a search answers the number of matches.
    public func find(_ command: FindCommand, in id: PageID) async throws(PagehostError) -> Int? {
        try touch(id)
        if case .search(let text, _) = command, text.isEmpty {
            throw PagehostError(.badRequest, "text to find must not be empty")
        }
        return try await engine.find(command, in: id)
    }

    /// Scrolls a page to a position or an element.
    public func scroll(_ id: PageID, to target: ScrollTarget) async throws(PagehostError) {
        try touch(id)
        if case .position(let x, let y) = target, !x.isFinite || !y.isFinite || x < 0 || y < 0 {
            throw PagehostError(.badRequest, "scroll position must be finite and not negative")
        }
        try await engine.scroll(id, to: target)
    }

    /// Clicks an element of a page as a user would.
    public func click(_ selector: String, in id: PageID) async throws(PagehostError) {
        try touch(id)
        guard !selector.isEmpty else { throw PagehostError(.badRequest, "selector must not be empty") }
        try await engine.click(selector, in: id)
    }

    // MARK: Internals

    /// Checks the page exists and records a command on its session (for `idleTimeout`).
    private func touch(_ id: PageID) throws(PagehostError) {
        guard let session = sessionOf(id), session.pages[id] != nil else { throw .noPage(id) }
        session.lastActivity = clock.now
    }

    static func validate(_ options: SessionOptions) throws(PagehostError) {
        let sides = Viewport.allowedSides
        guard sides.contains(options.viewport.width), sides.contains(options.viewport.height) else {
            throw PagehostError(.badRequest, "viewport must be between \(sides.lowerBound) and \(sides.upperBound) pixels on each side")
        }
        guard options.maxPopups >= 0 else { throw PagehostError(.badRequest, "maxPopups must not be negative") }
        if let suffix = options.userAgentSuffix, suffix.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            throw PagehostError(.badRequest, "userAgentSuffix must not contain control characters")
        }
    }

    /// Applies `change` to a page's state and emits `page.updated` with what changed.
    func update(_ id: PageID, _ change: (inout PageState) -> Void) {
        guard let session = sessionOf(id) else { return }
        if var pending = session.pendingPopups[id] {
            change(&pending)
            bound(&pending)
            session.pendingPopups[id] = pending
            return
        }
        guard let old = session.pages[id] else { return }
        var new = old
        change(&new)
        bound(&new)
        guard new != old else { return }
        if new.navigation?.id != old.navigation?.id {
            // A new document: a page whose dialogs were suppressed may show dialogs again.
            if let guarded = session.dialogGuards[id] { flushDialogRefusals(of: id, in: session, kind: guarded.lastKind) }
            session.dialogGuards[id] = nil
        }
        session.pages[id] = new
        guard session.isAnnounced else { return }
        let changes = new.changes(from: old)
        if !changes.isEmpty {
            events.append(.pageUpdated(session.id, id, changes: changes))
        }
    }

    /// Cuts page-controlled text to `maxTextLength`.
    private func bound(_ state: inout PageState) {
        let (title, titleCut) = Text.bounded(state.title, limits.maxTextLength)
        let (url, urlCut) = Text.bounded(state.url, limits.maxTextLength)
        state.title = title
        state.url = url
        state.truncated = titleCut || urlCut
    }

    /// Sets `visible` on every page of a session from its order.
    private func refreshVisibility(_ session: Session) {
        let visible = session.order.visible
        for id in session.order.pages {
            update(id) { $0.visible = (id == visible) }
        }
    }

    /// Closes a page now. An admin close in progress ends here too, whichever way the page went: its callers
    /// learn whether it was forced.
    func removePage(_ id: PageID, from session: Session, reason: Event.CloseReason, forced: Bool = false) {
        var reason = reason
        // First, so that dismissing its dialog below does not start a forced close of its own.
        let closing = session.closingPages.removeValue(forKey: id)
        // The page agreed to an admin's request (its window.close() after `requestClose`): the admin closed it.
        if closing != nil, reason == .script { reason = .admin }
        if let dialog = session.pages[id]?.dialog {
            finish(dialog, answer: .dismiss, by: .pageClosed)
        }
        engine.closePage(id)
        session.pages[id] = nil
        session.order.close(id)
        pageSessions[id] = nil
        // Its suppressed dialogs still being counted are reported before it goes; then nothing is kept for it.
        if let guarded = session.dialogGuards.removeValue(forKey: id), guarded.report.pending > 0 {
            events.append(.dialogsSuppressed(session.id, id, kind: guarded.lastKind, count: guarded.report.pending))
        }
        session.crashReloads[id] = nil
        events.append(.pageClosed(session.id, id, reason: reason, forced: forced))
        if !session.isClosing { refreshVisibility(session) }
        for waiter in closing?.waiters ?? [] { waiter.resume(returning: forced) }
    }

    func finish(_ dialog: Dialog, answer: DialogAnswer, by: DialogAnsweredBy) {
        guard let session = sessions[dialog.sessionID], session.dialogs.removeValue(forKey: dialog.id) != nil else { return }
        dialogSessions[dialog.id] = nil
        var answer = answer
        switch dialog.kind {
        case .prompt: answer.text = answer.accept ? (answer.text ?? dialog.defaultText ?? "") : nil
        default: answer.text = nil
        }
        update(dialog.pageID) { if $0.dialog?.id == dialog.id { $0.dialog = nil } }
        events.append(.dialogClosed(dialog, answer: answer, by: by))
        engine.answer(dialog.id, with: answer)
        if dialog.kind == .beforeunload, !answer.accept { pageStayed(dialog.pageID, in: session) }
    }
}

extension SessionHost: PageEngineEvents {
    public func pageChanged(_ page: PageID, _ update: (inout PageState) -> Void) {
        self.update(page, update)
    }

    public func popupRequested(by opener: PageID, url: String) -> PageID? {
        guard let session = sessionOf(opener), !session.isClosing,
              session.pages[opener] != nil || session.pendingPopups[opener] != nil
        else { return nil }
        func block(_ reason: Event.PopupBlockReason) -> PageID? {
            reportPopupRefusal(in: session, opener: opener, url: Text.bounded(url, limits.maxTextLength).0, reason: reason)
            return nil
        }
        if session.options.popupPolicy == .block { return block(.policy) }
        if session.options.navigationRules.decide(url).action == .block { return block(.navigationRule) }
        if session.popupCount >= session.options.maxPopups { return block(.limit) }
        let id = ids.page()
        var state = PageState(id: id, sessionID: session.id, openerID: opener, role: .popup)
        state.url = url
        bound(&state)
        session.pendingPopups[id] = state
        pageSessions[id] = session.id
        return id
    }

    public func popupReady(_ id: PageID, hasOpener: Bool, windowFeatures: WindowFeatures?) {
        guard let session = sessionOf(id), var state = session.pendingPopups.removeValue(forKey: id),
              let opener = state.openerID
        else { return }
        state.hasOpener = hasOpener
        state.windowFeatures = windowFeatures
        session.order.open(id, openedBy: opener)
        state.visible = session.order.visible == id
        session.pages[id] = state
        events.append(.pageOpened(state))
        refreshVisibility(session)
    }

    public func popupAbandoned(_ id: PageID) {
        guard let session = sessionOf(id), session.pendingPopups.removeValue(forKey: id) != nil else { return }
        pageSessions[id] = nil
    }

    public func pageRequestedClose(_ id: PageID) {
        guard let session = sessionOf(id), !session.isClosing else { return }
        if session.pendingPopups[id] != nil {
            engine.closePage(id)
            popupAbandoned(id)
        } else if id == session.mainPageID {
            events.append(.pageCloseRefused(session.id, id, reason: "the main page closes only with its session"))
        } else if session.pages[id] != nil {
            removePage(id, from: session, reason: .script)
        }
    }

    public func dialogRequested(on page: PageID, kind: Dialog.Kind, message: String, defaultText: String?) -> DialogID? {
        guard let session = sessionOf(page), !session.isClosing, session.pages[page] != nil else { return nil }
        guard admitDialog(kind, on: page, in: session) else { return nil }
        let (boundedMessage, messageCut) = Text.bounded(message, limits.maxTextLength)
        let (boundedDefault, defaultCut) = Text.bounded(defaultText ?? "", limits.maxTextLength)
        let dialog = Dialog(id: ids.dialog(), pageID: page, sessionID: session.id, kind: kind, message: boundedMessage,
                            defaultText: kind == .prompt ? boundedDefault : nil, truncated: messageCut || (kind == .prompt && defaultCut))
        session.dialogs[dialog.id] = dialog
        dialogSessions[dialog.id] = session.id
        // The page shows the dialog before anyone hears of it, so a listener that answers `dialog.opened`
        // at once finds a consistent page.
        update(page) { $0.dialog = dialog }
        events.append(.dialogOpened(dialog))
        let policyAnswer: DialogAnswer? = switch session.options.dialogPolicy {
        case .ask: nil
        case .accept: DialogAnswer(accept: true, text: session.options.promptText)
        case .dismiss: .dismiss
        }
        if let policyAnswer {
            // Never answer inside the engine's callback: the engine is still handing the dialog over.
            Task { @LoopActor [weak self] in
                guard let self, let still = self.pendingDialog(dialog.id) else { return }
                self.finish(still, answer: policyAnswer, by: .policy)
            }
        } else if let timeout = session.options.dialogTimeout {
            startDialogTimer(dialog.id, after: timeout)
        }
        return dialog.id
    }

    public func navigationRequested(by id: PageID, url: String) -> Bool {
        guard let session = sessionOf(id) else { return false }
        let decision = session.options.navigationRules.decide(url)
        guard decision.action == .block else { return true }
        let blockedBy: Event.BlockedBy = if let index = decision.ruleIndex, let rule = decision.rule {
            .rule(index: index, rule)
        } else {
            .defaultAction
        }
        events.append(.navigationBlocked(session.id, id, url: Text.bounded(url, limits.maxTextLength).0, rule: blockedBy))
        return false
    }

    public func responseNotDisplayable(in id: PageID, url: String, mimeType: String) {
        guard let session = sessionOf(id) else { return }
        events.append(.navigationBlocked(session.id, id, url: Text.bounded(url, limits.maxTextLength).0,
                                         rule: .notDisplayable(mimeType: Text.bounded(mimeType, 256).0)))
    }

    public func webProcessTerminated(_ id: PageID, reason: String) {
        guard let session = sessionOf(id), session.pages[id] != nil else { return }
        if let dialog = session.pages[id]?.dialog {
            finish(dialog, answer: .dismiss, by: .pageClosed)
        }
        update(id) {
            $0.crashed = true
            $0.isLoading = false
        }
        events.append(.pageCrashed(session.id, id, reason: reason))
        applyCrashPolicy(to: id, in: session, reason: reason)
    }
}
