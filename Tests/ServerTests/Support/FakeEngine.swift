import PagehostCore

/// An engine double for server tests that need no real pages (validation, limits, auth, event fan-out at
/// volume). Pages "load" at once; tests drive changes through `events`. Real-page behaviour is tested against
/// WebKitEngine.
@LoopActor
final class FakeEngine: PageEngine {
    nonisolated let name = "fake"
    private(set) weak var events: (any PageEngineEvents)?
    private(set) var openPages: Set<PageID> = []
    private(set) var answers: [DialogID: DialogAnswer] = [:]

    func attach(_ events: any PageEngineEvents) { self.events = events }
    func openSession(_ id: SessionID, options: SessionOptions) throws(PagehostError) {}
    func userAgent(of session: SessionID) -> String { "FakeEngine/1" }

    func openMainPage(_ page: PageID, in session: SessionID, loading request: LoadRequest) throws(PagehostError) {
        openPages.insert(page)
        try load(request, in: page)
    }

    func load(_ request: LoadRequest, in page: PageID) throws(PagehostError) {
        events?.pageChanged(page) {
            $0.url = request.displayURL
            $0.isLoading = false
            $0.estimatedProgress = 1
        }
    }

    func closePage(_ page: PageID) { openPages.remove(page) }
    /// Pages agree to close at once (no `beforeunload`), reporting it on the next loop iteration as WebKit does.
    func requestClose(_ page: PageID) {
        Task { @LoopActor [weak self] in self?.events?.pageRequestedClose(page) }
    }
    func closeSession(_ id: SessionID) {}
    func answer(_ dialog: DialogID, with answer: DialogAnswer) { answers[dialog] = answer }

    func evaluate(_ script: String, arguments: [(String, JSONValue)], in page: PageID) async throws(PagehostError) -> JSONValue {
        if script == "throw" { throw PagehostError(.scriptError, "Error: thrown") }
        return .object(arguments)
    }

    func screenshot(_ page: PageID) async throws(PagehostError) -> [UInt8] {
        [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    }

    func perform(_ action: HistoryAction, in page: PageID) throws(PagehostError) {}

    func find(_ command: FindCommand, in page: PageID) async throws(PagehostError) -> Int? { nil }

    func scroll(_ page: PageID, to target: ScrollTarget) async throws(PagehostError) {}

    func click(_ selector: String, in page: PageID) async throws(PagehostError) {}

    /// Opens a popup from `opener` as a page would with `window.open`.
    @discardableResult
    func openPopup(from opener: PageID, url: String) -> PageID? {
        guard let id = events?.popupRequested(by: opener, url: url) else { return nil }
        openPages.insert(id)
        events?.popupReady(id, hasOpener: true, windowFeatures: nil)
        return id
    }

    func setTitle(_ title: String, of page: PageID) {
        events?.pageChanged(page) { $0.title = title }
    }
}
