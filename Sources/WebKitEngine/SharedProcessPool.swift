import CWebKitGTK
import PagehostCore

/// The web processes that `shared` sessions are packed onto.
///
/// A slot is one web process and the pages in it. The first shared session of a slot opens its main view as
/// a `perSession` view would (its own web process and ephemeral data store); later sessions' main views are
/// created related to a live view of the slot, which puts them in that view's web process and data store;
/// popups follow their opener. A slot takes pages until it holds `pagesPerProcess`; when its last page
/// closes, its process exits with it.
///
/// (An invisible anchor view created just to hold the process made the first related page's load stall when
/// it was the process's first view, with WebKitGTK 2.50: real pages anchor the slot instead.)
///
/// Thread: LoopActor. The pool holds no references: it only knows the live views of the engine's pages, and
/// forgets each before its page is destroyed.
@LoopActor
final class SharedProcessPool {
    private final class Slot {
        var views: [PageID: UnsafeMutablePointer<WebKitWebView>] = [:]
        /// Pages counted against the slot, including a main page whose view is still being made.
        var pages: Set<PageID> = []
    }

    let pagesPerProcess: Int
    private var slots: [Slot] = []
    private var slotOfPage: [PageID: Slot] = [:]

    init(pagesPerProcess: Int) {
        self.pagesPerProcess = max(1, pagesPerProcess)
    }

    /// Where a new shared session's main page goes: a live view of a slot with room to be related to, or nil
    /// when it opens a new slot (then it is made like a `perSession` view). Either way the page is counted.
    func placeMainPage(_ page: PageID) -> UnsafeMutablePointer<WebKitWebView>? {
        if let slot = slots.first(where: { $0.pages.count < pagesPerProcess && !$0.views.isEmpty }) {
            add(page, to: slot)
            return slot.views.values.first
        }
        let slot = Slot()
        slots.append(slot)
        add(page, to: slot)
        return nil
    }

    /// The page's view exists now; it can anchor later sessions.
    func viewMade(_ page: PageID, view: UnsafeMutablePointer<WebKitWebView>) {
        slotOfPage[page]?.views[page] = view
    }

    /// A popup runs where its opener runs; it counts against that slot.
    func popupOpened(_ page: PageID, by opener: PageID, view: UnsafeMutablePointer<WebKitWebView>) {
        guard let slot = slotOfPage[opener] else { return }
        add(page, to: slot)
        slot.views[page] = view
    }

    /// Forgets a page; call before its view is destroyed.
    func pageClosed(_ page: PageID) {
        guard let slot = slotOfPage.removeValue(forKey: page) else { return }
        slot.pages.remove(page)
        slot.views[page] = nil
        if slot.pages.isEmpty {
            slots.removeAll { $0 === slot }
        }
    }

    /// Pages per slot, for diagnostics and tests.
    var occupancy: [Int] { slots.map(\.pages.count) }

    private func add(_ page: PageID, to slot: Slot) {
        slot.pages.insert(page)
        slotOfPage[page] = slot
    }
}
