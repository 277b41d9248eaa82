import CWebKitGTK
import MainLoop
import PagehostCore
import Testing
@testable import WebKitEngine

/// A closed page leaves nothing of its view behind in the UI process: the `WebKitWebView` and the widgets
/// WebKit keeps inside it are finalized. The soak opens a popup every few seconds per session for hours, so
/// anything a closed view leaves behind adds up to gigabytes (WebKitGTK 2.50 left its key-binding text view).
@Suite
struct ClosedViewReleaseTests {
    init() { MainLoop.shared.start() }

    static let server = try! TestHTTPServer { path in
        switch path {
        case "/popup": return .init(body: "<title>popup</title><p>popup page</p>")
        default: return .init(body: "<title>main</title><p>main page</p>")
        }
    }

    /// Counts finalized objects through GObject weak references.
    @LoopActor final class Finalizations {
        private(set) var watched = 0
        private(set) var finalized = 0

        /// Watches a view and every widget inside it, internal ones included (`gtk_container_forall`).
        func watchView(_ view: UnsafeMutablePointer<WebKitWebView>) {
            var widgets: [UnsafeMutableRawPointer] = [UnsafeMutableRawPointer(view)]
            withUnsafeMutablePointer(to: &widgets) { list in
                gtk_container_forall(ph_container(view), { child, data in
                    guard let child, let data else { return }
                    data.assumingMemoryBound(to: [UnsafeMutableRawPointer].self).pointee.append(UnsafeMutableRawPointer(child))
                }, list)
            }
            for widget in widgets {
                watched += 1
                g_object_weak_ref(widget.assumingMemoryBound(to: GObject.self), { data, _ in
                    let counter = Unmanaged<Finalizations>.fromOpaque(data!).takeUnretainedValue()
                    LoopActor.assumeIsolated { counter.finalized += 1 }
                }, Unmanaged.passUnretained(self).toOpaque())
            }
        }
    }

    @Test @LoopActor func aClosedPopupAndAClosedSessionLeaveNoWidgetBehind() async throws {
        let h = try EngineHarness.make()
        defer { h.tearDown() }
        let origin = Self.server.origin
        let (sessionID, main) = try await h.openSession(.url(origin + "/"))
        _ = try await h.eval(main, "window.popup = window.open(url, '_blank', 'popup'); return true", [("url", .string(origin + "/popup"))])
        let popup = try await h.waitForEvent("popup page.opened") {
            if case .pageOpened(let p) = $0.payload { return p.role == .popup } else { return false }
        }
        guard case .pageOpened(let state) = popup.payload else { return }
        try await h.waitForNavigation(state.id, .finished)

        let popupObjects = Finalizations()
        popupObjects.watchView(try h.engine.page(state.id).view)
        // The view holds at least the text view WebKit translates key bindings with.
        #expect(popupObjects.watched >= 2)
        _ = try await h.eval(main, "window.popup.close(); return true")
        try await h.waitUntil("the closed popup's view and its widgets are finalized") {
            popupObjects.finalized == popupObjects.watched
        }

        let mainObjects = Finalizations()
        mainObjects.watchView(try h.engine.page(main).view)
        try h.host.closeSession(sessionID)
        try await h.waitUntil("the closed session's main view and its widgets are finalized") {
            mainObjects.finalized == mainObjects.watched
        }
    }
}
