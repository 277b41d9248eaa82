import PagehostCore

/// A `PageEngine` with no web engine behind it: it records what the core asks of it, and lets a test play
/// the engine's part by calling the `PageEngineEvents` the host gave it in `attach` (`events`).
///
/// Thread: LoopActor, like every engine.
@LoopActor
final class RecordingEngine: PageEngine {
    struct MainPageOpening: Equatable {
        let page: PageID
        let session: SessionID
        let request: LoadRequest
    }

    struct Load: Equatable {
        let request: LoadRequest
        let page: PageID
    }

    struct Answer: Equatable {
        let dialog: DialogID
        let answer: DialogAnswer
    }

    struct Evaluation {
        let script: String
        let arguments: [(String, JSONValue)]
        let page: PageID
    }

    let name = "recording"

    private var attached: (any PageEngineEvents)?
    private(set) var attachCount = 0
    private(set) var openedSessions: [SessionID] = []
    private(set) var mainPages: [MainPageOpening] = []
    private(set) var loads: [Load] = []
    private(set) var closedPages: [PageID] = []
    private(set) var closedSessions: [SessionID] = []
    private(set) var answers: [Answer] = []
    private(set) var evaluations: [Evaluation] = []

    /// What `evaluate` returns.
    var evaluationResult: JSONValue = .null
    /// When set, `openMainPage` fails with it (after recording the call).
    var openMainPageError: PagehostError?
    /// Runs inside `openMainPage`, as an engine reporting state before the host has announced the session.
    var whileOpeningMainPage: (@LoopActor (PageID) -> Void)?

    init() {}

    /// Where the engine reports what happens in its pages: the host, through the protocol it attached.
    var events: any PageEngineEvents {
        guard let attached else { preconditionFailure("RecordingEngine used before a host attached to it") }
        return attached
    }

    func attach(_ events: any PageEngineEvents) {
        attached = events
        attachCount += 1
    }

    func openSession(_ id: SessionID, options: SessionOptions) throws(PagehostError) {
        openedSessions.append(id)
    }

    func userAgent(of session: SessionID) -> String {
        "RecordingEngine/1 (\(session))"
    }

    func openMainPage(_ page: PageID, in session: SessionID, loading request: LoadRequest) throws(PagehostError) {
        mainPages.append(MainPageOpening(page: page, session: session, request: request))
        whileOpeningMainPage?(page)
        if let openMainPageError { throw openMainPageError }
    }

    func load(_ request: LoadRequest, in page: PageID) throws(PagehostError) {
        loads.append(Load(request: request, page: page))
    }

    func closePage(_ page: PageID) {
        closedPages.append(page)
    }

    /// Pages asked to close (`requestClose`), in order.
    private(set) var closeRequests: [PageID] = []
    /// Whether pages agree to close when asked: then the engine reports `pageRequestedClose` on the next loop
    /// iteration, as WebKit does after the page's `beforeunload` handlers ran. Otherwise the test plays the page.
    var pagesAgreeToClose = true

    func requestClose(_ page: PageID) {
        closeRequests.append(page)
        guard pagesAgreeToClose else { return }
        Task { @LoopActor [weak self] in self?.events.pageRequestedClose(page) }
    }

    func closeSession(_ id: SessionID) {
        closedSessions.append(id)
    }

    func answer(_ dialog: DialogID, with answer: DialogAnswer) {
        answers.append(Answer(dialog: dialog, answer: answer))
    }

    func evaluate(_ script: String, arguments: [(String, JSONValue)], in page: PageID) async throws(PagehostError) -> JSONValue {
        evaluations.append(Evaluation(script: script, arguments: arguments, page: page))
        return evaluationResult
    }

    func screenshot(_ page: PageID) async throws(PagehostError) -> [UInt8] {
        [0x89, 0x50, 0x4E, 0x47]
    }

    private(set) var historyActions: [(HistoryAction, PageID)] = []
    func perform(_ action: HistoryAction, in page: PageID) throws(PagehostError) {
        historyActions.append((action, page))
    }

    private(set) var findCommands: [(FindCommand, PageID)] = []
    func find(_ command: FindCommand, in page: PageID) async throws(PagehostError) -> Int? {
        findCommands.append((command, page))
        return nil
    }

    private(set) var scrolls: [(ScrollTarget, PageID)] = []
    func scroll(_ page: PageID, to target: ScrollTarget) async throws(PagehostError) {
        scrolls.append((target, page))
    }

    private(set) var clicks: [(String, PageID)] = []
    func click(_ selector: String, in page: PageID) async throws(PagehostError) {
        clicks.append((selector, page))
    }
}
