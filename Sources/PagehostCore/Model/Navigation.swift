/// The current navigation of a page: one id from `startedProvisional` to its end, as in WebKit's
/// `WebPage.currentNavigationEvent`. A new navigation replaces the current one.
public struct Navigation: Sendable, Equatable {
    public enum Event: String, Sendable, CaseIterable {
        case startedProvisional
        case receivedServerRedirect
        case committed
        case finished
        case failedProvisional
        case failed
    }

    /// Increases with each navigation of the page; the engine numbers them.
    public var id: Int
    public var event: Event
    /// The engine's error text, for the two failure events.
    public var error: String?

    public init(id: Int, event: Event, error: String? = nil) {
        self.id = id
        self.event = event
        self.error = error
    }
}

/// What a page asked for its window when it opened it (`window.open(url, name, "width=…")`).
/// The engine sizes the page by its host window, so these are reported, not applied.
public struct WindowFeatures: Sendable, Equatable {
    public var x: Int?
    public var y: Int?
    public var width: Int?
    public var height: Int?
    public var toolbarVisible: Bool
    public var statusbarVisible: Bool
    public var scrollbarsVisible: Bool
    public var menubarVisible: Bool
    public var locationbarVisible: Bool
    public var resizable: Bool
    public var fullscreen: Bool

    public init(x: Int? = nil, y: Int? = nil, width: Int? = nil, height: Int? = nil,
                toolbarVisible: Bool = true, statusbarVisible: Bool = true, scrollbarsVisible: Bool = true,
                menubarVisible: Bool = true, locationbarVisible: Bool = true, resizable: Bool = true,
                fullscreen: Bool = false) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
        self.toolbarVisible = toolbarVisible
        self.statusbarVisible = statusbarVisible
        self.scrollbarsVisible = scrollbarsVisible
        self.menubarVisible = menubarVisible
        self.locationbarVisible = locationbarVisible
        self.resizable = resizable
        self.fullscreen = fullscreen
    }
}
