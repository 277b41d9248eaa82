/// What the core asks of a web engine. Engines (WebKitGTK; later an HTML-only one) implement it and report
/// what happens in their pages through `PageEngineEvents`.
///
/// Thread: everything runs on `LoopActor`. Page, session and dialog ids are the core's; the engine keeps
/// its own objects keyed by them.
@LoopActor
public protocol PageEngine: AnyObject {
    /// The engine's name on the wire (`webkit`).
    var name: String { get }

    /// Sets who hears about engine-side happenings. Called once, before any session opens.
    func attach(_ events: any PageEngineEvents)

    /// Prepares a session's resources (its storage, settings, user agent). Its pages share them; other
    /// sessions never see them.
    func openSession(_ id: SessionID, options: SessionOptions) throws(PagehostError)

    /// The user agent the session's pages send.
    func userAgent(of session: SessionID) -> String

    /// Creates the session's main page and starts loading it.
    func openMainPage(_ page: PageID, in session: SessionID, loading request: LoadRequest) throws(PagehostError)

    /// Starts loading `request` in a page.
    func load(_ request: LoadRequest, in page: PageID) throws(PagehostError)

    /// Destroys a page now, without asking it. No further events come for it.
    func closePage(_ page: PageID)

    /// Asks a page to close as a user closing its window would: its `beforeunload` handlers run, and may show
    /// a `beforeunload` dialog (reported with `dialogRequested`). If the page agrees, the engine reports
    /// `pageRequestedClose` (later, never inside this call); otherwise the page stays open.
    func requestClose(_ page: PageID)

    /// Frees a session's resources, after all its pages are closed.
    func closeSession(_ id: SessionID)

    /// Answers a dialog the engine reported with `dialogRequested`; the page's script resumes.
    func answer(_ dialog: DialogID, with answer: DialogAnswer)

    /// Runs `script` as the body of an async function whose named arguments are `arguments`, and returns its
    /// JSON-compatible result (promises are awaited).
    func evaluate(_ script: String, arguments: [(String, JSONValue)], in page: PageID) async throws(PagehostError) -> JSONValue

    /// A PNG of what the page shows, at the session's viewport size.
    func screenshot(_ page: PageID) async throws(PagehostError) -> [UInt8]

    /// Back, forward, reload or stop.
    func perform(_ action: HistoryAction, in page: PageID) throws(PagehostError)

    /// Find in page; a search answers its number of matches, the other commands nil.
    func find(_ command: FindCommand, in page: PageID) async throws(PagehostError) -> Int?

    /// Scrolls a page; an element that matches nothing is `not_found`.
    func scroll(_ page: PageID, to target: ScrollTarget) async throws(PagehostError)

    /// Clicks the first element matching a CSS selector as a user would (real input events, so a popup it
    /// opens is user-initiated); an element that matches nothing is `not_found`.
    func click(_ selector: String, in page: PageID) async throws(PagehostError)
}

/// What an engine reports to the core. Implemented by `SessionHost`.
@LoopActor
public protocol PageEngineEvents: AnyObject {
    /// A page's observable state changed; `update` applies the change.
    func pageChanged(_ page: PageID, _ update: (inout PageState) -> Void)

    /// A page asks for a new window (`window.open`, `target=_blank`). Returns the popup's id, or nil to
    /// refuse it (the page's `window.open` then returns null; the host reports why). With an id, the engine
    /// creates the popup's view itself, related to the opener's, and keeps it under that id.
    func popupRequested(by opener: PageID, url: String) -> PageID?

    /// A popup allowed by `popupRequested` is ready to show: it becomes a page of its session.
    func popupReady(_ page: PageID, hasOpener: Bool, windowFeatures: WindowFeatures?)

    /// A popup allowed by `popupRequested` went away before it was ready to show.
    func popupAbandoned(_ page: PageID)

    /// The page's script called `window.close()`. The host closes it (through `closePage`) unless it is
    /// the main page, which closes only with its session.
    func pageRequestedClose(_ page: PageID)

    /// A page's script shows a dialog and waits. Returns the dialog's id, with which the engine is later
    /// told the answer (`answer(_:with:)`), possibly on a later loop iteration, never inside this call.
    func dialogRequested(on page: PageID, kind: Dialog.Kind, message: String, defaultText: String?) -> DialogID?

    /// The page's web process went away (crashed, killed, out of memory).
    func webProcessTerminated(_ page: PageID, reason: String)

    /// A page is about to navigate to `url` (any navigation of any page). Returns whether it may; when it
    /// may not, the engine cancels it and the host has reported why.
    func navigationRequested(by page: PageID, url: String) -> Bool

    /// A page's response cannot be shown (a download); the engine cancelled it.
    func responseNotDisplayable(in page: PageID, url: String, mimeType: String)
}
