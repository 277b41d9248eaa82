import Foundation

/// One browser session: a main page, the popups its pages opened, and the dialogs they wait on.
///
/// Thread: LoopActor. The host mutates it; everything else reads snapshots.
@LoopActor
public final class Session {
    public let id: SessionID
    public let options: SessionOptions
    public let createdAt: Date
    public let mainPageID: PageID
    public let userAgent: String
    /// Open pages by id (popups appear here once ready to show).
    public internal(set) var pages: [PageID: PageState] = [:]
    public internal(set) var order: PageOrder
    /// Popups allowed but not yet ready to show. They count against the popup cap; engine updates to them
    /// are kept here and announced with `page.opened`.
    var pendingPopups: [PageID: PageState] = [:]
    /// Dialogs waiting for an answer, by id.
    public internal(set) var dialogs: [DialogID: Dialog] = [:]
    /// Set while the session is closing, so nothing new starts in it.
    var isClosing = false
    /// False until `session.created` is out; changes before it are folded into that first snapshot.
    var isAnnounced = false
    /// The last time a command touched the session (for `idleTimeout`).
    var lastActivity = ContinuousClock.now
    /// Blocked popups not yet reported (a popup flood is reported as counted events).
    var popupRefusals = RefusalReport()
    var lastPopupRefusal: (opener: PageID, url: String, reason: Event.PopupBlockReason)?
    /// Per page: recent dialog times, and whether its dialogs are suppressed until it navigates.
    var dialogGuards: [PageID: DialogGuard] = [:]
    /// Popups an admin asked to close, waiting for their consent (`SessionHost.closePage`).
    var closingPages: [PageID: ClosingPage] = [:]
    /// Per page: how many times `onCrash: reload` reloaded it.
    var crashReloads: [PageID: Int] = [:]

    init(id: SessionID, options: SessionOptions, mainPageID: PageID, userAgent: String, createdAt: Date = Date()) {
        self.id = id
        self.options = options
        self.mainPageID = mainPageID
        self.userAgent = userAgent
        self.createdAt = createdAt
        self.order = PageOrder(mode: options.popupMode, main: mainPageID)
    }

    /// Popups open or being opened.
    public var popupCount: Int { pages.count - (pages[mainPageID] == nil ? 0 : 1) + pendingPopups.count }

    /// An admin close in progress: who waits for its outcome (whether it was forced).
    struct ClosingPage {
        var waiters: [CheckedContinuation<Bool, Never>] = []
    }

    /// One page's defence against dialog loops.
    struct DialogGuard {
        var recent: [ContinuousClock.Instant] = []
        var suppressed = false
        var report = RefusalReport()
        var lastKind: Dialog.Kind = .alert
    }

    public func snapshot(engine: String) -> SessionSnapshot {
        SessionSnapshot(
            id: id, label: options.label, engine: engine, popupMode: options.popupMode, createdAt: createdAt,
            pages: order.pages.compactMap { pages[$0] }, order: order.pages, userAgent: userAgent)
    }
}
