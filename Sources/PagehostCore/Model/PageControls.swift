/// History and loading controls, as a browser's toolbar has them.
public enum HistoryAction: String, Sendable, CaseIterable {
    case back, forward, reload, stop
}

/// Find in page.
public enum FindCommand: Sendable, Equatable {
    /// Highlights every match of `text` and selects the first; answers the number of matches.
    case search(String, caseInsensitive: Bool)
    /// Selects the next or previous match of the current search.
    case next
    case previous
    /// Removes the highlights.
    case clear
}

/// Where to scroll a page to.
public enum ScrollTarget: Sendable, Equatable {
    case position(x: Double, y: Double)
    /// The first element matching a CSS selector, scrolled into view.
    case element(selector: String)
}

/// A page's scroll position and content size, in CSS pixels.
public struct ScrollState: Sendable, Equatable {
    public var x: Double
    public var y: Double
    public var contentWidth: Double
    public var contentHeight: Double

    public init(x: Double, y: Double, contentWidth: Double, contentHeight: Double) {
        self.x = x
        self.y = y
        self.contentWidth = contentWidth
        self.contentHeight = contentHeight
    }
}
