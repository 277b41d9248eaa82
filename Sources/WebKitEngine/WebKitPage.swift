import CWebKitGTK
import PagehostCore

/// One page: a `WebKitWebView` in a `GtkWindow` of its own on Pagehost's private display, and the signal
/// handlers that turn WebKit's notifications into `PageEngineEvents` calls.
///
/// Thread: LoopActor; every signal handler below runs on the loop thread (GLib emits on the thread that
/// runs the default main context) and enters the actor with `LoopActor.assumeIsolated`.
/// Ownership: the window owns the view (it sank the view's floating reference); `close()` destroys the
/// window and drops the page's reference to its content manager (the view holds its own). Handlers hold a `SignalTarget` (weak) so a signal that arrives after `close()` does nothing.
@LoopActor
final class WebKitPage {
    let id: PageID
    let session: WebKitSession
    let isPopup: Bool
    let view: UnsafeMutablePointer<WebKitWebView>
    private let contentManager: UnsafeMutablePointer<WebKitUserContentManager>
    private let window: UnsafeMutablePointer<GtkWidget>
    unowned let engine: WebKitEngine
    private(set) var signals: SignalTarget<WebKitPage>!

    /// Numbers this page's navigations; WebKit's load events carry no id of their own.
    private var navigationID = 0
    /// Set by `load-failed`, so the `finished` that WebKit emits after a failure does not hide it.
    private var currentNavigationFailed = false
    private var sawInsecureContent = false
    /// `ready-to-show` can fire twice for one popup (WebKit 2.50); one popup stays one page.
    private var shown = false
    private(set) var isClosed = false
    /// The theme colour the page observer last reported (see `PageObserver`).
    private var observedThemeColor: String?
    /// Find-in-page requests waiting for WebKit's answer (see `WebKitPage+Find`).
    var pendingFinds: [CheckedContinuation<Int, Never>] = []
    /// The number of matches of the current search.
    var lastFindCount = 0
    /// The last load asked of this page, to reload a document that came from a string (see `reload`).
    private var lastLoad: LoadRequest?
    private var navigationTimer: Task<Void, Never>?
    private var pinging = false
    /// A ping into the page did not answer in time (see `probeResponsiveness`).
    private var pingUnanswered = false
    /// While WebKit's `close` for the page is handled: its own script asked (`window.close()`, or agreeing to
    /// `requestClose`), so its web process is running script, whatever a stale unresponsive flag says.
    private var pageAskedToClose = false
    /// The navigation that `navigationTimeout` stopped, so its failure says so.
    private var timedOutNavigation: Int?

    init(id: PageID, view: UnsafeMutablePointer<WebKitWebView>, contentManager: UnsafeMutablePointer<WebKitUserContentManager>,
         session: WebKitSession, engine: WebKitEngine, isPopup: Bool) {
        self.id = id
        self.view = view
        self.contentManager = contentManager
        self.session = session
        self.engine = engine
        self.isPopup = isPopup
        window = gtk_window_new(GTK_WINDOW_TOPLEVEL)
        gtk_window_set_decorated(ph_window(window), 0)
        gtk_window_set_default_size(ph_window(window), gint(session.options.viewport.width), gint(session.options.viewport.height))
        gtk_container_add(ph_container(window), ph_widget(view))
        signals = SignalTarget(self)
        connectSignals()
        if !isPopup { show() }
    }

    var events: (any PageEngineEvents)? { engine.events }

    /// Puts the window on screen: a page outside a mapped window reports `document.hidden` and a 0×0 viewport.
    private func show() {
        gtk_widget_show_all(window)
    }

    /// Destroys the window and with it the view. No handler runs for this page afterwards.
    func close() {
        guard !isClosed else { return }
        isClosed = true
        navigationTimer?.cancel()
        signals.target = nil
        // A web process that does not answer (a busy loop) would keep spinning after its view goes. Not one
        // whose page just asked to close: under load WebKit and the ping can report a process unresponsive for
        // a while, and terminating it would crash the session's other pages, which share it.
        if !pageAskedToClose, webkit_web_view_get_is_web_process_responsive(view) == 0 || pingUnanswered {
            webkit_web_view_terminate_web_process(view)
        }
        // WebKitGTK 2.50 leaves a closed view's key-binding text view behind (see the shim): ~20 KB a popup.
        ph_release_key_binding_widget(ph_widget(view))
        gtk_widget_destroy(window)
        g_object_unref(contentManager)
    }

    // MARK: Loading

    func load(_ request: LoadRequest) {
        lastLoad = request
        switch request {
        case .url(let url): webkit_web_view_load_uri(view, url)
        case .html(let html, let baseURL): webkit_web_view_load_html(view, html, baseURL)
        case .data(let bytes, let mimeType, let encoding, let baseURL):
            let data = bytes.withUnsafeBytes { g_bytes_new($0.baseAddress, gsize($0.count)) }
            webkit_web_view_load_bytes(view, data, mimeType, encoding, baseURL)
            g_bytes_unref(data)
        }
    }

    /// Reloads the page. WebKit reloads a document loaded from a string (HTML or bytes) as `about:blank`, so
    /// while the page still shows that document (its URL is the load's base URL), the load is made again.
    func reload() {
        let current = webkit_web_view_get_uri(view).map { String(cString: $0) }
        switch lastLoad {
        case .html(_, let base)?, .data(_, _, _, let base)?:
            if current == (base ?? "about:blank") {
                load(lastLoad!)
                return
            }
        default:
            break
        }
        webkit_web_view_reload(view)
    }

    // MARK: Signal handlers

    private func connectSignals() {
        let raw = UnsafeMutableRawPointer(view)
        typealias Notify = @convention(c) (gpointer?, gpointer?, gpointer?) -> Void
        let notify: Notify = { _, _, data in
            let target = SignalTarget<WebKitPage>.from(data)
            LoopActor.assumeIsolated { target.target?.refresh() }
        }
        for property in ["uri", "title", "is-loading", "estimated-load-progress", "theme-color", "is-web-process-responsive"] {
            signals.connect(raw, "notify::" + property, notify)
        }

        typealias LoadChanged = @convention(c) (gpointer?, WebKitLoadEvent, gpointer?) -> Void
        let loadChanged: LoadChanged = { _, event, data in
            let target = SignalTarget<WebKitPage>.from(data)
            let raw = event.rawValue
            LoopActor.assumeIsolated { target.target?.loadChanged(WebKitLoadEvent(rawValue: raw)) }
        }
        signals.connect(raw, "load-changed", loadChanged)

        typealias LoadFailed = @convention(c) (gpointer?, WebKitLoadEvent, UnsafePointer<gchar>?, UnsafeMutablePointer<GError>?, gpointer?) -> gboolean
        let loadFailed: LoadFailed = { _, event, _, error, data in
            let target = SignalTarget<WebKitPage>.from(data)
            let provisional = event == WEBKIT_LOAD_STARTED || event == WEBKIT_LOAD_REDIRECTED
            let message = error.flatMap { $0.pointee.message.map { String(cString: $0) } } ?? "load failed"
            LoopActor.assumeIsolated { target.target?.loadFailed(provisional: provisional, message: message) }
            // Handled: no error page is loaded in its place, so the failure stays the page's navigation state.
            return 1
        }
        signals.connect(raw, "load-failed", loadFailed)

        typealias Insecure = @convention(c) (gpointer?, WebKitInsecureContentEvent, gpointer?) -> Void
        let insecure: Insecure = { _, _, data in
            let target = SignalTarget<WebKitPage>.from(data)
            LoopActor.assumeIsolated { target.target?.insecureContentDetected() }
        }
        signals.connect(raw, "insecure-content-detected", insecure)

        typealias Create = @convention(c) (gpointer?, gpointer?, gpointer?) -> UnsafeMutablePointer<GtkWidget>?
        let create: Create = { _, action, data in
            let target = SignalTarget<WebKitPage>.from(data)
            let actionBits = UInt(bitPattern: action)
            let widget = LoopActor.assumeIsolated { () -> UInt in
                guard let page = target.target, let action = OpaquePointer(bitPattern: actionBits) else { return 0 }
                return UInt(bitPattern: page.createPopup(action))
            }
            return UnsafeMutablePointer(bitPattern: widget)
        }
        signals.connect(raw, "create", create)

        typealias Plain = @convention(c) (gpointer?, gpointer?) -> Void
        let readyToShow: Plain = { _, data in
            let target = SignalTarget<WebKitPage>.from(data)
            LoopActor.assumeIsolated { target.target?.readyToShow() }
        }
        signals.connect(raw, "ready-to-show", readyToShow)

        let close: Plain = { _, data in
            let target = SignalTarget<WebKitPage>.from(data)
            LoopActor.assumeIsolated {
                guard let page = target.target else { return }
                // The host closes the page inside this call; one that stays open (a main page) forgets it.
                page.pageAskedToClose = true
                page.events?.pageRequestedClose(page.id)
                page.pageAskedToClose = false
            }
        }
        signals.connect(raw, "close", close)

        typealias ScriptDialog = @convention(c) (gpointer?, gpointer?, gpointer?) -> gboolean
        let scriptDialog: ScriptDialog = { _, dialog, data in
            let target = SignalTarget<WebKitPage>.from(data)
            let bits = UInt(bitPattern: dialog)
            return LoopActor.assumeIsolated {
                guard let page = target.target, let dialog = OpaquePointer(bitPattern: bits) else { return 0 }
                page.engine.hold(dialog, from: page)
                return 1
            }
        }
        signals.connect(raw, "script-dialog", scriptDialog)

        typealias Terminated = @convention(c) (gpointer?, WebKitWebProcessTerminationReason, gpointer?) -> Void
        let terminated: Terminated = { _, reason, data in
            let target = SignalTarget<WebKitPage>.from(data)
            let text: String = switch reason {
            case WEBKIT_WEB_PROCESS_CRASHED: "crashed"
            case WEBKIT_WEB_PROCESS_EXCEEDED_MEMORY_LIMIT: "exceededMemoryLimit"
            case WEBKIT_WEB_PROCESS_TERMINATED_BY_API: "terminatedByAPI"
            default: "terminated"
            }
            LoopActor.assumeIsolated {
                guard let page = target.target else { return }
                page.events?.webProcessTerminated(page.id, reason: text)
            }
        }
        signals.connect(raw, "web-process-terminated", terminated)

        typealias HistoryChanged = @convention(c) (gpointer?, gpointer?, gpointer?, gpointer?) -> Void
        let historyChanged: HistoryChanged = { _, _, _, data in
            let target = SignalTarget<WebKitPage>.from(data)
            LoopActor.assumeIsolated { target.target?.refresh() }
        }
        signals.connect(UnsafeMutableRawPointer(webkit_web_view_get_back_forward_list(view)), "changed", historyChanged)

        typealias Message = @convention(c) (gpointer?, OpaquePointer?, gpointer?) -> Void
        let message: Message = { _, _, data in
            let target = SignalTarget<WebKitPage>.from(data)
            LoopActor.assumeIsolated {
                guard let page = target.target else { return }
                page.engine.observerReported(in: page.session.id)
            }
        }
        // Popups share their opener's manager (see `createPopup`): one handler per manager, the main page's.
        if !isPopup {
            signals.connect(UnsafeMutableRawPointer(contentManager), "script-message-received::" + PageObserver.handler, message)
        }
        connectPolicySignals()
        connectFindSignals()
    }

    private var readingState = false
    private var readStateAgain = false

    /// Reads what the page observer saw in this page's isolated world: one read at a time, and one more if
    /// asked meanwhile, so the last change is never missed.
    func readObservedState() {
        guard !isClosed else { return }
        guard !readingState else {
            readStateAgain = true
            return
        }
        readingState = true
        Task { @LoopActor [weak self] in
            guard let self else { return }
            let value = try? await self.engine.evaluate(PageObserver.readState, arguments: [], in: self.id,
                                                        world: PageObserver.world)
            self.readingState = false
            guard !self.isClosed else { return }
            if let value, value != .null {
                self.observedThemeColor = value["themeColor"]?.stringValue
                if let scroll = value["scroll"], let x = scroll["x"]?.doubleValue, let y = scroll["y"]?.doubleValue,
                   let width = scroll["contentWidth"]?.doubleValue, let height = scroll["contentHeight"]?.doubleValue {
                    let state = ScrollState(x: x, y: y, contentWidth: width, contentHeight: height)
                    self.events?.pageChanged(self.id) { $0.scroll = state }
                }
            }
            self.refresh()
            if self.readStateAgain {
                self.readStateAgain = false
                self.readObservedState()
            }
        }
    }

    /// Reads the view's observable properties; the host keeps only what changed. Nothing once the page closed:
    /// its view is destroyed (callers that waited, such as a ping, may come back after that).
    func refresh() {
        guard !isClosed else { return }
        let url = webkit_web_view_get_uri(view).map { String(cString: $0) } ?? ""
        let title = webkit_web_view_get_title(view).map { String(cString: $0) } ?? ""
        let isLoading = webkit_web_view_is_loading(view) != 0
        let progress = webkit_web_view_get_estimated_load_progress(view)
        var rgba = GdkRGBA()
        let engineColor = webkit_web_view_get_theme_color(view, &rgba) != 0 && rgba.alpha > 0 ? WebKitPage.hex(rgba) : nil
        let themeColor = engineColor ?? observedThemeColor
        let canGoBack = webkit_web_view_can_go_back(view) != 0
        let canGoForward = webkit_web_view_can_go_forward(view) != 0
        let responsive = webkit_web_view_get_is_web_process_responsive(view) != 0 && !pingUnanswered
        events?.pageChanged(id) { state in
            state.responsive = responsive
            state.url = url
            state.title = title
            state.isLoading = isLoading
            state.estimatedProgress = progress
            state.themeColor = themeColor
            state.canGoBack = canGoBack
            state.canGoForward = canGoForward
        }
    }

    private func loadChanged(_ event: WebKitLoadEvent) {
        switch event {
        case WEBKIT_LOAD_STARTED:
            startNavigationTimer()
            navigationID += 1
            currentNavigationFailed = false
            observedThemeColor = nil
            sawInsecureContent = false
            setNavigation(.startedProvisional)
        case WEBKIT_LOAD_REDIRECTED:
            setNavigation(.receivedServerRedirect)
        case WEBKIT_LOAD_COMMITTED:
            let secure = isSecureConnection()
            events?.pageChanged(id) { $0.hasOnlySecureContent = secure; $0.crashed = false }
            setNavigation(.committed)
        case WEBKIT_LOAD_FINISHED:
            navigationTimer?.cancel()
            if !currentNavigationFailed { setNavigation(.finished) }
        default:
            break
        }
        refresh()
    }

    private func loadFailed(provisional: Bool, message: String) {
        if navigationID == 0 { navigationID = 1 }
        navigationTimer?.cancel()
        currentNavigationFailed = true
        let error = timedOutNavigation == navigationID
            ? "the navigation did not finish within \(engine.navigationTimeout) and was stopped" : message
        setNavigation(provisional ? .failedProvisional : .failed, error: error)
        refresh()
    }

    private func setNavigation(_ event: Navigation.Event, error: String? = nil) {
        let navigation = Navigation(id: max(navigationID, 1), event: event, error: error)
        events?.pageChanged(id) { $0.navigation = navigation }
    }

    private func insecureContentDetected() {
        sawInsecureContent = true
        events?.pageChanged(id) { $0.hasOnlySecureContent = false }
    }

    private func isSecureConnection() -> Bool {
        var certificate: UnsafeMutablePointer<GTlsCertificate>?
        var errors = GTlsCertificateFlags(rawValue: 0)
        return webkit_web_view_get_tls_info(view, &certificate, &errors) != 0 && errors.rawValue == 0 && !sawInsecureContent
    }

    /// `create`: the page wants a new window. The session's policy decides; an allowed popup is a view
    /// related to this one (same web process and storage, so `window.opener` and `postMessage` work).
    private func createPopup(_ action: OpaquePointer) -> UnsafeMutablePointer<GtkWidget>? {
        guard !isClosed else { return nil }
        let request = webkit_navigation_action_get_request(action)
        let url = request.flatMap { webkit_uri_request_get_uri($0) }.map { String(cString: $0) } ?? ""
        guard let popupID = events?.popupRequested(by: id, url: url) else { return nil }
        // The opener's content manager, shared: WebKit hands a popup's observer messages to it anyway (see
        // `PageObserver`), and a manager of its own per popup stayed registered in the web and UI processes
        // after the popup closed, which the soak saw as memory growing with every popup.
        let popupContent = contentManager
        g_object_ref(UnsafeMutableRawPointer(popupContent))
        let popupView = ph_web_view_new_related(view, popupContent)!
        let popup = WebKitPage(id: popupID, view: popupView, contentManager: popupContent, session: session, engine: engine, isPopup: true)
        engine.register(popup, openedBy: id)
        return ph_widget(popupView)
    }

    /// Checks whether the web process still runs script: an isolated-world ping that must answer within
    /// `pingDeadline`. WebKit's own `is-web-process-responsive` only changes when the user gives input, which
    /// nobody does here, so a page stuck in a busy loop would otherwise never be reported. Called when a call
    /// into the page is slow, never on a timer (idle pages cost nothing). A ping that answers late (the loop
    /// ended) makes the page responsive again.
    func probeResponsiveness() {
        guard !isClosed, !pinging else { return }
        pinging = true
        let view = view
        Task { @LoopActor [weak self] in
            let answered: Bool = await AsyncCallback.run(
                deadline: WebKitPage.pingDeadline, timedOut: false,
                discard: { [weak self] late in if late { self?.pingAnswered() } },
                start: { callback, data in
                    webkit_web_view_call_async_javascript_function(view, "return 1", -1, nil, PageObserver.world, nil, nil, callback, data)
                }, finish: { source, result in
                    let value = webkit_web_view_call_async_javascript_function_finish(
                        source?.assumingMemoryBound(to: WebKitWebView.self), result, nil)
                    if let value { g_object_unref(UnsafeMutableRawPointer(value)) }
                    return true
                })
            // The page may have closed while the ping waited (a popup closing itself): its view is gone.
            guard let self, !self.isClosed else { return }
            if answered {
                self.pingAnswered()
            } else {
                self.pingUnanswered = true
                self.refresh()
            }
        }
    }

    private func pingAnswered() {
        pinging = false
        pingUnanswered = false
        refresh()
    }

    static let pingDeadline: Duration = .seconds(3)

    /// Stops a navigation that has not finished within the engine's `navigationTimeout` (a response that
    /// never ends, a server that never answers), so it fails in bounded time with an error that says why.
    private func startNavigationTimer() {
        navigationTimer?.cancel()
        let timeout = engine.navigationTimeout
        navigationTimer = Task { @LoopActor [weak self] in
            guard (try? await Task.sleep(for: timeout)) != nil, let self, !self.isClosed else { return }
            self.timedOutNavigation = self.navigationID
            webkit_web_view_stop_loading(self.view)
        }
    }

    /// `ready-to-show`: the popup's window goes on screen and the popup becomes a page of the session.
    ///
    /// Whether its script world sees an opener (false for `noopener` and `target=_blank` links) is only
    /// observable from inside the page, so the popup is announced once an isolated-world check answers, or
    /// at once if its script shows a dialog first (the check would wait behind the dialog), or after
    /// `openerCheckDeadline`; a later answer then arrives as an update of `hasOpener`.
    private func readyToShow() {
        guard isPopup, !shown, !isClosed else { return }
        shown = true
        pendingFeatures = windowFeatures()
        show()
        refresh()
        Task { @LoopActor [weak self] in
            guard let self else { return }
            let result = try? await self.engine.evaluate("return window.opener !== null", arguments: [], in: self.id,
                                                         world: PageObserver.world)
            let hasOpener = result == .bool(true)
            if !self.announceIfPending(hasOpener: hasOpener), !self.isClosed {
                self.events?.pageChanged(self.id) { $0.hasOpener = hasOpener }
            }
        }
        Task { @LoopActor [weak self] in
            try? await Task.sleep(for: WebKitPage.openerCheckDeadline)
            _ = self?.announceIfPending(hasOpener: false)
        }
    }

    static let openerCheckDeadline: Duration = .seconds(2)
    private var pendingFeatures: WindowFeatures?
    private var announced = false

    /// Makes the popup a page of its session, once. Returns whether this call did it.
    func announceIfPending(hasOpener: Bool) -> Bool {
        guard isPopup, shown, !announced, !isClosed else { return false }
        announced = true
        events?.popupReady(id, hasOpener: hasOpener, windowFeatures: pendingFeatures)
        return true
    }

    private func windowFeatures() -> WindowFeatures? {
        guard let properties = webkit_web_view_get_window_properties(view) else { return nil }
        var geometry = GdkRectangle()
        webkit_window_properties_get_geometry(properties, &geometry)
        return WindowFeatures(
            x: geometry.width > 0 ? Int(geometry.x) : nil,
            y: geometry.height > 0 ? Int(geometry.y) : nil,
            width: geometry.width > 0 ? Int(geometry.width) : nil,
            height: geometry.height > 0 ? Int(geometry.height) : nil,
            toolbarVisible: webkit_window_properties_get_toolbar_visible(properties) != 0,
            statusbarVisible: webkit_window_properties_get_statusbar_visible(properties) != 0,
            scrollbarsVisible: webkit_window_properties_get_scrollbars_visible(properties) != 0,
            menubarVisible: webkit_window_properties_get_menubar_visible(properties) != 0,
            locationbarVisible: webkit_window_properties_get_locationbar_visible(properties) != 0,
            resizable: webkit_window_properties_get_resizable(properties) != 0,
            fullscreen: webkit_window_properties_get_fullscreen(properties) != 0)
    }

    static func hex(_ rgba: GdkRGBA) -> String {
        func byte(_ v: Double) -> String {
            let n = Int((min(max(v, 0), 1) * 255).rounded())
            let s = String(n, radix: 16)
            return s.count == 1 ? "0" + s : s
        }
        return "#" + byte(rgba.red) + byte(rgba.green) + byte(rgba.blue)
    }
}
