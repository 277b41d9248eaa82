import CWebKitGTK
import PagehostCore

/// The web processes that `shared` sessions are packed onto.
///
/// Each slot is an anchor: a view that is no page of any session, loaded with `about:blank` so its web
/// process runs. A shared session's main view is created related to an anchor, which puts it in the
/// anchor's web process and data store; its popups follow it there. A slot takes pages until it holds
/// `pagesPerProcess`; when its last page closes, the anchor goes and the process exits.
///
/// Thread: LoopActor. The pool owns one reference to each anchor view (sunk from floating).
@LoopActor
final class SharedProcessPool {
    private final class Slot {
        let anchor: UnsafeMutablePointer<WebKitWebView>
        var pages: Set<PageID> = []
        init(anchor: UnsafeMutablePointer<WebKitWebView>) { self.anchor = anchor }
    }

    let pagesPerProcess: Int
    private var slots: [Slot] = []
    private var slotOfPage: [PageID: Slot] = [:]

    init(pagesPerProcess: Int) {
        self.pagesPerProcess = max(1, pagesPerProcess)
    }

    /// The anchor a new shared session's main page should be related to (a new slot when all are full).
    func anchor(for page: PageID, context: UnsafeMutablePointer<WebKitWebContext>, settings: UnsafeMutablePointer<WebKitSettings>) -> UnsafeMutablePointer<WebKitWebView> {
        let slot: Slot
        if let open = slots.first(where: { $0.pages.count < pagesPerProcess }) {
            slot = open
        } else {
            let content = webkit_user_content_manager_new()
            let anchor = ph_web_view_new_ephemeral(context, settings, content)!
            g_object_unref(content)
            g_object_ref_sink(anchor)
            webkit_web_view_load_uri(anchor, "about:blank")
            slot = Slot(anchor: anchor)
            slots.append(slot)
        }
        add(page, to: slot)
        return slot.anchor
    }

    /// A popup runs where its opener runs; it counts against that slot.
    func popupOpened(_ page: PageID, by opener: PageID) {
        guard let slot = slotOfPage[opener] else { return }
        add(page, to: slot)
    }

    func pageClosed(_ page: PageID) {
        guard let slot = slotOfPage.removeValue(forKey: page) else { return }
        slot.pages.remove(page)
        if slot.pages.isEmpty {
            slots.removeAll { $0 === slot }
            g_object_unref(slot.anchor)
        }
    }

    /// Pages per slot, for diagnostics and tests.
    var occupancy: [Int] { slots.map(\.pages.count) }

    private func add(_ page: PageID, to slot: Slot) {
        slot.pages.insert(page)
        slotOfPage[page] = slot
    }
}
