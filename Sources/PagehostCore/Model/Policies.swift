/// How a session shows the popups its pages open (the seeds' two ways of presenting a new web view).
public enum PopupMode: String, Sendable, CaseIterable {
    /// Same controller: pages form a stack over the main page; only the top one is visible.
    case stacked
    /// New controller: each page is a tab; one tab is active.
    case tabbed
}

/// Who answers a session's JavaScript dialogs.
public enum DialogPolicy: String, Sendable, CaseIterable {
    /// The dialog waits for an answer from the API (or the dashboard).
    case ask
    /// Answered at once: OK, and a prompt gets its default text (or the session's prompt text).
    case accept
    /// Answered at once: Cancel; confirm sees false, prompt sees null.
    case dismiss
}

/// Whether a session's pages may open popups at all.
public enum PopupPolicy: String, Sendable, CaseIterable {
    case allow
    case block
}

/// How a session's pages map onto the engine's web processes.
public enum ProcessModel: String, Sendable, CaseIterable {
    /// Each session has its own web process and its own ephemeral data store: isolated like separate browser
    /// profiles, and a crash takes down one session only.
    case perSession
    /// Sessions are packed onto a pool of shared web processes (a bounded number of pages each) for density.
    /// Sessions sharing a process also share its data store (cookies, storage, cache), can reach each
    /// other's named windows, and crash together.
    case shared
}

/// What happens to a page whose web process crashed.
public enum CrashPolicy: String, Sendable, CaseIterable {
    /// The page stays, marked crashed, until someone reloads or closes it.
    case keep
    /// The page is reloaded (a new web process), up to `maxCrashReloads` times.
    case reload
    /// The page closes (reason `crash`); a crashed main page closes its session.
    case close
}

/// A page's size in CSS pixels.
public struct Viewport: Sendable, Equatable {
    public var width: Int
    public var height: Int
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    public static let standard = Viewport(width: 1280, height: 800)
    /// Bounds that keep one page's window (and its screenshots) sane.
    public static let allowedSides = 16...4096
}

/// What to load into a page.
public enum LoadRequest: Sendable, Equatable {
    case url(String)
    case html(String, baseURL: String?)
    /// Bytes with a MIME type and character encoding (nil: the engine guesses), as if served from `baseURL`.
    case data([UInt8], mimeType: String, encoding: String?, baseURL: String?)

    /// The URL a load starts at, for messages and events.
    public var displayURL: String {
        switch self {
        case .url(let url): return url
        case .html(_, let base), .data(_, _, _, let base): return base ?? "about:blank"
        }
    }
}
