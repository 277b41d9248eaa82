import Foundation

/// A session as the wire contract shows it, at one moment.
public struct SessionSnapshot: Sendable {
    public let id: SessionID
    public let label: String?
    public let engine: String
    public let popupMode: PopupMode
    public let createdAt: Date
    /// Main page first, then popups in the order they opened.
    public let pages: [PageState]
    /// Page ids: the stack bottom-to-top, or the tabs left-to-right.
    public let order: [PageID]
    public let userAgent: String

    public init(id: SessionID, label: String?, engine: String, popupMode: PopupMode, createdAt: Date,
                pages: [PageState], order: [PageID], userAgent: String) {
        self.id = id
        self.label = label
        self.engine = engine
        self.popupMode = popupMode
        self.createdAt = createdAt
        self.pages = pages
        self.order = order
        self.userAgent = userAgent
    }
}
