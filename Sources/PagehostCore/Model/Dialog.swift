/// A JavaScript dialog that a page's script is waiting on.
public struct Dialog: Sendable, Equatable {
    public enum Kind: String, Sendable, CaseIterable {
        case alert, confirm, prompt, beforeunload
    }

    public let id: DialogID
    public let pageID: PageID
    public let sessionID: SessionID
    public let kind: Kind
    public let message: String
    /// The prompt's default text; nil for other kinds.
    public let defaultText: String?
    /// Whether the message or default text were cut to the host's `maxTextLength`.
    public let truncated: Bool

    public init(id: DialogID, pageID: PageID, sessionID: SessionID, kind: Kind, message: String, defaultText: String?,
                truncated: Bool = false) {
        self.id = id
        self.pageID = pageID
        self.sessionID = sessionID
        self.kind = kind
        self.message = message
        self.defaultText = defaultText
        self.truncated = truncated
    }
}

/// How a dialog was answered: OK (with a prompt's text) or Cancel.
public struct DialogAnswer: Sendable, Equatable {
    public var accept: Bool
    /// The prompt's text when accepted; ignored for other kinds.
    public var text: String?

    public init(accept: Bool, text: String? = nil) {
        self.accept = accept
        self.text = text
    }

    public static let dismiss = DialogAnswer(accept: false)
}

/// Who answered a dialog, as the event reports it.
public enum DialogAnsweredBy: String, Sendable {
    /// The session's dialog policy answered at once.
    case policy
    /// A command (the API, the dashboard, a test) answered it.
    case command
    /// Its page or session closed first; it was dismissed.
    case pageClosed
    /// Nobody answered within the session's `dialogTimeout`; the policy's dismiss answered it.
    case timeout
}
