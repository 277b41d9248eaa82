/// The order of a session's pages and which one is visible: a stack (same controller) or tabs (new
/// controller). A value type, so the rules are testable on their own.
///
/// - stacked: `pages` is bottom-to-top, the main page first; the top page is the visible one.
/// - tabbed: `pages` is left-to-right; `active` is the visible tab.
public struct PageOrder: Sendable, Equatable {
    public let mode: PopupMode
    public private(set) var pages: [PageID]
    private var active: PageID?
    /// Who opened each page, to pick the tab to activate when the active tab closes.
    private var openers: [PageID: PageID] = [:]

    public init(mode: PopupMode, main: PageID) {
        self.mode = mode
        self.pages = [main]
        self.active = main
    }

    /// The page shown: the top of the stack, or the active tab.
    public var visible: PageID? {
        switch mode {
        case .stacked: return pages.last
        case .tabbed: return active
        }
    }

    /// A popup opens: on top of the stack, or appended as a new tab that becomes active.
    public mutating func open(_ page: PageID, openedBy opener: PageID) {
        guard !pages.contains(page) else { return }
        pages.append(page)
        openers[page] = opener
        active = page
    }

    /// A page closes; only that page leaves. In a stack, the page below the top becomes visible again; in
    /// tabs, closing the active tab activates its opener if still open, else the tab to its left.
    public mutating func close(_ page: PageID) {
        guard let index = pages.firstIndex(of: page) else { return }
        pages.remove(at: index)
        let opener = openers.removeValue(forKey: page)
        switch mode {
        case .stacked:
            active = pages.last
        case .tabbed:
            guard active == page else { return }
            if let opener, pages.contains(opener) {
                active = opener
            } else if !pages.isEmpty {
                active = pages[max(0, index - 1)]
            } else {
                active = nil
            }
        }
    }

    /// Makes a tab the active one (tabbed mode); in a stack, visibility follows the order only.
    public mutating func activate(_ page: PageID) {
        guard mode == .tabbed, pages.contains(page) else { return }
        active = page
    }
}
