import PagehostCore
import Testing

/// `PageOrder` in `tabbed` mode: each popup is a new tab; one tab is active.
@Suite("Tabbed pages")
struct TabbedPagesTests {
    let main = PageID("main")
    let a = PageID("a")
    let b = PageID("b")
    let c = PageID("c")
    let x = PageID("x")

    @Test("a new popup is appended as the rightmost tab and becomes active")
    func popupAppendedAndActive() {
        var order = PageOrder(mode: .tabbed, main: main)
        #expect(order.visible == main)
        order.open(a, openedBy: main)
        #expect(order.pages == [main, a])
        #expect(order.visible == a)
        // Opened by a tab that is not the rightmost: still appended at the end.
        order.activate(main)
        order.open(b, openedBy: main)
        #expect(order.pages == [main, a, b])
        #expect(order.visible == b)
    }

    @Test("closing the active tab activates its opener when the opener is still open")
    func closingActiveActivatesOpener() {
        var order = PageOrder(mode: .tabbed, main: main)
        order.open(a, openedBy: main)
        order.open(b, openedBy: main)
        // The tab to b's left is a; its opener is main.
        order.close(b)
        #expect(order.pages == [main, a])
        #expect(order.visible == main)
    }

    @Test("closing the active tab whose opener is gone activates the tab to its left")
    func closingActiveWithoutOpenerActivatesLeft() {
        var order = PageOrder(mode: .tabbed, main: main)
        order.open(x, openedBy: main)
        order.open(a, openedBy: main)
        order.open(b, openedBy: a)
        order.open(c, openedBy: main)
        order.activate(b)
        order.close(a)  // b's opener goes; b stays active
        #expect(order.pages == [main, x, b, c])
        #expect(order.visible == b)
        order.close(b)
        // Not its opener (gone), not main, not the tab to its right (c): the tab to its left.
        #expect(order.pages == [main, x, c])
        #expect(order.visible == x)
    }

    @Test("closing an inactive tab keeps the active one")
    func closingInactiveKeepsActive() {
        var order = PageOrder(mode: .tabbed, main: main)
        order.open(a, openedBy: main)
        order.open(b, openedBy: a)
        order.close(a)
        #expect(order.pages == [main, b])
        #expect(order.visible == b)
        order.activate(main)
        order.close(b)
        #expect(order.pages == [main])
        #expect(order.visible == main)
    }

    @Test("activating a tab makes it the visible one; an unknown tab is ignored")
    func activate() {
        var order = PageOrder(mode: .tabbed, main: main)
        order.open(a, openedBy: main)
        order.activate(main)
        #expect(order.visible == main)
        order.activate(PageID("elsewhere"))
        #expect(order.visible == main)
        #expect(order.pages == [main, a])
    }
}
