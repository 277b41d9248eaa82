/// One change in the server's state. Every change is an event, numbered by a server-wide increasing `seq`.
public struct Event: Sendable {
    public let seq: UInt64
    public let payload: Payload

    public init(seq: UInt64, payload: Payload) {
        self.seq = seq
        self.payload = payload
    }

    /// Why a page closed.
    public enum CloseReason: String, Sendable {
        /// Its script called `window.close()`.
        case script
        /// A command (API, dashboard) closed it.
        case admin
        /// Its session closed.
        case session
        /// Its web process crashed and the session's policy closes crashed pages.
        case crash
    }

    /// Why a session closed.
    public enum SessionCloseReason: String, Sendable {
        /// A command (API, dashboard, CLI) closed it.
        case command
        /// No command and no watcher for the session's `idleTimeout`.
        case idleTimeout
        /// The session reached its `maxLifetime`.
        case maxLifetime
        /// Its main page crashed and the session's crash policy is `close`.
        case crash
        /// The server is shutting down.
        case shutdown
    }

    /// Why a popup was not opened.
    public enum PopupBlockReason: String, Sendable {
        /// The session's popup policy is `block`.
        case policy
        /// The session already has its maximum of popups open.
        case limit
        /// The opener is closing or gone.
        case openerClosed
        /// The session's navigation rules block the popup's URL.
        case navigationRule
    }

    /// What stopped a navigation.
    public enum BlockedBy: Sendable, Equatable {
        /// The rule at this index of the session's navigation rules.
        case rule(index: Int, NavigationRule)
        /// No rule matched and the rules' default is `block`.
        case defaultAction
        /// The response cannot be shown (a download, say): it was cancelled rather than silently dropped.
        case notDisplayable(mimeType: String)
    }

    public enum Payload: Sendable {
        case sessionCreated(SessionSnapshot)
        case sessionClosed(SessionID)
        /// A session closed for a reason other than a command (`session.closed` with that reason).
        case sessionEnded(SessionID, reason: SessionCloseReason)
        case pageOpened(PageState)
        case pageUpdated(SessionID, PageID, changes: [(String, JSONValue)])
        /// `forced`: an admin close that did not wait for the page's consent (see `SessionHost.closePage`).
        case pageClosed(SessionID, PageID, reason: CloseReason, forced: Bool = false)
        /// A page's script asked to close a window that only closes with its session (the main page).
        case pageCloseRefused(SessionID, PageID, reason: String)
        case dialogOpened(Dialog)
        case dialogClosed(Dialog, answer: DialogAnswer, by: DialogAnsweredBy)
        case popupBlocked(SessionID, openerID: PageID, url: String, reason: PopupBlockReason)
        /// Refusals counted since the last `popup.blocked` of the session (a popup flood), the last one's URL.
        case popupsBlocked(SessionID, openerID: PageID, url: String, reason: PopupBlockReason, count: Int)
        /// Dialogs of a page answered at once with "dismiss" because it showed too many.
        case dialogsSuppressed(SessionID, PageID, kind: Dialog.Kind, count: Int)
        case pageCrashed(SessionID, PageID, reason: String)
        case navigationBlocked(SessionID, PageID, url: String, rule: BlockedBy)
    }

    /// The wire name of the event's type.
    public var type: String {
        switch payload {
        case .sessionCreated: return "session.created"
        case .sessionClosed, .sessionEnded: return "session.closed"
        case .pageOpened: return "page.opened"
        case .pageUpdated: return "page.updated"
        case .pageClosed: return "page.closed"
        case .pageCloseRefused: return "page.closeRefused"
        case .dialogOpened: return "dialog.opened"
        case .dialogClosed: return "dialog.closed"
        case .popupBlocked, .popupsBlocked: return "popup.blocked"
        case .dialogsSuppressed: return "dialog.suppressed"
        case .pageCrashed: return "page.crashed"
        case .navigationBlocked: return "navigation.blocked"
        }
    }

    /// The session the event belongs to (every event belongs to one).
    public var sessionID: SessionID {
        switch payload {
        case .sessionCreated(let s): return s.id
        case .sessionClosed(let id), .sessionEnded(let id, _): return id
        case .pageOpened(let page): return page.sessionID
        case .pageUpdated(let id, _, _), .pageClosed(let id, _, _, _), .pageCloseRefused(let id, _, _),
             .popupBlocked(let id, _, _, _), .pageCrashed(let id, _, _), .navigationBlocked(let id, _, _, _),
             .popupsBlocked(let id, _, _, _, _), .dialogsSuppressed(let id, _, _, _):
            return id
        case .dialogOpened(let d), .dialogClosed(let d, _, _): return d.sessionID
        }
    }
}
