import CWebKitGTK
import Glibc
import PagehostCore

/// `PageEngine` on WebKitGTK 4.1: every page a `WebKitWebView` in a real `GtkWindow` on Pagehost's private
/// X display.
///
/// Thread: LoopActor, i.e. the GLib main-loop thread, the only thread that touches GTK or WebKit. Create it
/// there (`try await WebKitEngine()` from async code after `MainLoop.shared.start()`).
/// Isolation: all sessions share the default `WebKitWebContext`; each session's main view is created with
/// `is-ephemeral`, which gives it a data store of its own (cookies, local storage, cache) that its popups
/// share through `related-view` and that no other session sees.
@LoopActor
public final class WebKitEngine: PageEngine {
    public nonisolated let name = "webkit"

    /// Host side: held weakly, the host owns the engine.
    private(set) weak var events: (any PageEngineEvents)?
    private var sessions: [SessionID: WebKitSession] = [:]
    private var pages: [PageID: WebKitPage] = [:]
    /// Dialogs the pages' scripts wait on, each holding one `webkit_script_dialog_ref`.
    var dialogs: [DialogID: OpaquePointer] = [:]
    /// Where `shared` sessions run.
    let sharedPool: SharedProcessPool

    private static let display = XvfbDisplay()
    private static var toolkitReady = false

    /// The web context every session's views belong to. Pagehost makes its own and never releases it:
    /// WebKit releases its default context in an `atexit` handler, which aborts when `exit` is called on
    /// another thread than the loop's (as a test runner or a signal handler does).
    private static let context: UnsafeMutablePointer<WebKitWebContext> = webkit_web_context_new()

    /// Makes sure there is a display (starting Xvfb if `DISPLAY` is unset) and GTK is initialised, and serves
    /// `customSchemes` from their folders.
    /// A navigation that has not finished after this long is stopped and fails, saying so.
    public let navigationTimeout: Duration

    /// `pagesPerProcess` bounds how many pages of `shared` sessions one web process holds.
    /// `javascriptCollectionThresholdMB`: see `limitJavaScriptGarbage`; the first engine of the process sets it
    /// for every web process.
    public init(customSchemes: [CustomScheme] = [], pagesPerProcess: Int = 16,
                navigationTimeout: Duration = .seconds(30), javascriptCollectionThresholdMB: Int = 4) throws(PagehostError) {
        sharedPool = SharedProcessPool(pagesPerProcess: pagesPerProcess)
        self.navigationTimeout = navigationTimeout
        try WebKitEngine.prepareToolkit(javascriptCollectionThresholdMB: javascriptCollectionThresholdMB)
        CustomSchemeHandler.register(customSchemes, in: WebKitEngine.context)
    }

    private static func prepareToolkit(javascriptCollectionThresholdMB: Int) throws(PagehostError) {
        guard !toolkitReady else { return }
        limitJavaScriptGarbage(thresholdMB: javascriptCollectionThresholdMB)
        try display.ensure()
        guard gtk_init_check(nil, nil) != 0 else {
            throw PagehostError(.unavailable, "GTK could not open the X display \(display.display ?? "?")")
        }
        // Pages of one session share a process through related views; a lean cache suits many sessions.
        webkit_web_context_set_cache_model(context, WEBKIT_CACHE_MODEL_DOCUMENT_VIEWER)
        toolkitReady = true
    }

    /// How much garbage a web process's JavaScript heap may pile up before it is collected. JavaScriptCore
    /// collects a heap once it outgrows both twice what survived the last collection and a floor, which is
    /// 32 MB in WebKit (`largeHeapSize`, tuned for one browser on a desktop). A small page that makes garbage
    /// steadily (every closed popup leaves its window's objects behind in its opener's process) then grows by
    /// up to 32 MB before a collection, times every web process Pagehost runs: 100 sessions' processes grew
    /// from 27 to 55–68 MB each. WebKit has no API for it; JavaScriptCore reads its options from `JSC_`
    /// variables, which the web processes inherit. Set before the first web process starts, on the loop
    /// thread before the server's threads exist.
    private static func limitJavaScriptGarbage(thresholdMB: Int) {
        setenv("JSC_largeHeapSize", String(max(1, thresholdMB) * 1024 * 1024), 1)
    }

    /// The X display in use (`:99`), once the engine exists.
    public static var displayName: String? { display.display }

    public func attach(_ events: any PageEngineEvents) {
        self.events = events
    }

    // MARK: Sessions and pages

    public func openSession(_ id: SessionID, options: SessionOptions) throws(PagehostError) {
        sessions[id] = WebKitSession(id: id, options: options)
    }

    public func userAgent(of session: SessionID) -> String {
        sessions[session]?.userAgent ?? ""
    }

    public func closeSession(_ id: SessionID) {
        for page in pages.values where page.session.id == id {
            closePage(page.id)
        }
        sessions.removeValue(forKey: id)?.close()
    }

    public func openMainPage(_ page: PageID, in session: SessionID, loading request: LoadRequest) throws(PagehostError) {
        guard let session = sessions[session] else { throw .noSession(session) }
        let contentManager = PageObserver.makeContentManager()
        let anchor: UnsafeMutablePointer<WebKitWebView>? = switch session.options.processModel {
        case .perSession: nil
        case .shared: sharedPool.placeMainPage(page)
        }
        let made: UnsafeMutablePointer<WebKitWebView>? = if let anchor {
            ph_web_view_new_in_pool(anchor, session.settings, contentManager)
        } else {
            ph_web_view_new_ephemeral(WebKitEngine.context, session.settings, contentManager)
        }
        guard let view = made else {
            sharedPool.pageClosed(page)
            g_object_unref(contentManager)
            throw PagehostError(.engine, "WebKit could not create a web view")
        }
        let main = WebKitPage(id: page, view: view, contentManager: contentManager, session: session, engine: self, isPopup: false)
        if session.options.processModel == .shared { sharedPool.viewMade(page, view: view) }
        pages[page] = main
        main.load(request)
    }

    /// A page observer said something changed in some page of `session`; see `PageObserver` for why every
    /// page of the session is read again.
    func observerReported(in session: SessionID) {
        for page in pages.values where page.session.id == session {
            page.readObservedState()
        }
    }

    /// Pages in each web process of the shared pool (for diagnostics and tests).
    public var sharedPoolOccupancy: [Int] { sharedPool.occupancy }

    /// Keeps a popup made inside a `create` signal.
    func register(_ page: WebKitPage, openedBy opener: PageID) {
        pages[page.id] = page
        sharedPool.popupOpened(page.id, by: opener, view: page.view)
    }

    public func load(_ request: LoadRequest, in page: PageID) throws(PagehostError) {
        try self.page(page).load(request)
    }

    public func closePage(_ id: PageID) {
        guard let page = pages.removeValue(forKey: id) else { return }
        sharedPool.pageClosed(id)
        page.close()
    }

    /// `webkit_web_view_try_close`: the web process runs the page's `beforeunload` handlers (a dialog they show
    /// arrives as `script-dialog`), and WebKit emits `close` if the page agrees.
    public func requestClose(_ id: PageID) {
        guard let page = pages[id], !page.isClosed else { return }
        webkit_web_view_try_close(page.view)
    }

    func page(_ id: PageID) throws(PagehostError) -> WebKitPage {
        guard let page = pages[id], !page.isClosed else { throw .noPage(id) }
        return page
    }
}
