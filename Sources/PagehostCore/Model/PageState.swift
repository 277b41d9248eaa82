/// Everything observable about one page: the wire contract's Page object.
///
/// Engines change it through `PageEngineEvents.pageChanged`; the host compares before and after and emits
/// `page.updated` with only the properties that changed.
public struct PageState: Sendable, Equatable {
    public enum Role: String, Sendable {
        case main, popup
    }

    public let id: PageID
    public let sessionID: SessionID
    /// The page that opened it, even when `window.opener` is null; nil for the main page.
    public let openerID: PageID?
    public let role: Role
    /// Whether the page's `window.opener` is set (false for `noopener` and `target=_blank` links).
    public var hasOpener: Bool = false
    /// Top of the stack, or the active tab.
    public var visible: Bool = false
    public var url: String = ""
    public var title: String = ""
    public var isLoading: Bool = false
    /// 0…1.
    public var estimatedProgress: Double = 0
    /// `#rrggbb`, or nil when the page declares none.
    public var themeColor: String?
    public var hasOnlySecureContent: Bool = false
    public var canGoBack: Bool = false
    public var canGoForward: Bool = false
    public var windowFeatures: WindowFeatures?
    public var navigation: Navigation?
    /// The dialog the page's script is waiting on.
    public var dialog: Dialog?
    public var crashed: Bool = false
    /// Scroll position and content size, once the page reported them.
    public var scroll: ScrollState?
    /// False while the page's web process does not answer (a busy loop); the engine says so.
    public var responsive: Bool = true
    /// Whether `title` or `url` were cut to the host's `maxTextLength`.
    public var truncated: Bool = false

    public init(id: PageID, sessionID: SessionID, openerID: PageID?, role: Role) {
        self.id = id
        self.sessionID = sessionID
        self.openerID = openerID
        self.role = role
    }
}
