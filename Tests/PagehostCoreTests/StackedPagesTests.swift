import PagehostCore
import Testing

/// `PageOrder` in `stacked` mode: popups pile up over the main page and only the top one shows.
@Suite("Stacked pages")
struct StackedPagesTests {
    let main = PageID("main")
    let a = PageID("a")
    let b = PageID("b")

    @Test("a session starts with its main page alone and visible")
    func startsWithMain() {
        let order = PageOrder(mode: .stacked, main: main)
        #expect(order.pages == [main])
        #expect(order.visible == main)
    }

    @Test("a popup goes on top of the stack and is the visible page")
    func popupGoesOnTop() {
        var order = PageOrder(mode: .stacked, main: main)
        order.open(a, openedBy: main)
        #expect(order.pages == [main, a])
        #expect(order.visible == a)
        order.open(b, openedBy: main)
        #expect(order.pages == [main, a, b])
        #expect(order.visible == b)
    }

    @Test("closing the top page makes the one below it visible")
    func closingTopShowsBelow() {
        var order = PageOrder(mode: .stacked, main: main)
        order.open(a, openedBy: main)
        order.open(b, openedBy: a)
        order.close(b)
        #expect(order.pages == [main, a])
        #expect(order.visible == a)
        order.close(a)
        #expect(order.pages == [main])
        #expect(order.visible == main)
    }

    @Test("closing the middle page of three leaves the other two in order, the top still visible")
    func closingMiddleKeepsOrder() {
        var order = PageOrder(mode: .stacked, main: main)
        order.open(a, openedBy: main)
        order.open(b, openedBy: a)
        order.close(a)
        #expect(order.pages == [main, b])
        #expect(order.visible == b)
    }

    @Test("the same popup opened twice stays one page")
    func openingTwiceKeepsOneEntry() {
        var order = PageOrder(mode: .stacked, main: main)
        order.open(a, openedBy: main)
        order.open(b, openedBy: main)
        order.open(a, openedBy: main)
        #expect(order.pages == [main, a, b])
        #expect(order.visible == b)
    }

    @Test("activating a page does not reorder a stack")
    func activateIsIgnored() {
        var order = PageOrder(mode: .stacked, main: main)
        order.open(a, openedBy: main)
        order.activate(main)
        #expect(order.pages == [main, a])
        #expect(order.visible == a)
    }

    @Test("closing a page that is not in the stack changes nothing")
    func closingUnknownPage() {
        var order = PageOrder(mode: .stacked, main: main)
        order.open(a, openedBy: main)
        let before = order
        order.close(PageID("elsewhere"))
        #expect(order == before)
    }
}
