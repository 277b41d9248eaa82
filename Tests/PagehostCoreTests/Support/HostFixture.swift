import PagehostCore
import Testing

/// A `SessionHost` over a `RecordingEngine`, with shortcuts for what most host tests do first.
@LoopActor
final class HostFixture {
    let engine = RecordingEngine()
    let host: SessionHost

    init(limits: HostLimits = HostLimits()) {
        host = SessionHost(engine: engine, limits: limits)
    }

    /// What the engine calls when something happens in a page (the host, seen as the engine sees it).
    var reports: any PageEngineEvents { engine.events }

    /// Creates a session loading `url`; `configure` adjusts the default options.
    func createSession(url: String = "https://example.com/",
                       _ configure: (inout SessionOptions) -> Void = { _ in }) throws -> SessionSnapshot {
        var options = SessionOptions()
        configure(&options)
        return try host.createSession(options, loading: .url(url))
    }

    /// The seq of the last event so far, to read what comes after it.
    var mark: UInt64 { host.events.lastSeq }

    /// The events after `mark`.
    func events(after mark: UInt64) -> [Event] {
        host.events.events(after: mark) ?? []
    }

    /// A popup that `opener` asked for and the engine then showed.
    func openPopup(from opener: PageID, url: String = "https://example.com/popup",
                   hasOpener: Bool = true, windowFeatures: WindowFeatures? = nil) throws -> PageID {
        let id = try #require(reports.popupRequested(by: opener, url: url))
        reports.popupReady(id, hasOpener: hasOpener, windowFeatures: windowFeatures)
        return id
    }

    /// The page as the host holds it now.
    func page(_ id: PageID) throws -> PageState {
        try host.page(id)
    }
}

extension Event {
    /// The `pageId` the event names, if any.
    var pageID: String? { json["pageId"]?.stringValue }

    /// The changes of a `page.updated`, as a JSON object; nil for other events.
    var changes: JSONValue? {
        guard case .pageUpdated(_, _, let changes) = payload else { return nil }
        return .object(changes)
    }

    /// The reason of a `page.closed`, nil for other events.
    var closeReason: Event.CloseReason? {
        guard case .pageClosed(_, _, let reason, _) = payload else { return nil }
        return reason
    }

    /// Whether a `page.closed` says the close was forced; nil for other events.
    var forcedClose: Bool? {
        guard case .pageClosed(_, _, _, let forced) = payload else { return nil }
        return forced
    }
}
