import CWebKitGTK
import PagehostCore

extension WebKitEngine {
    public func perform(_ action: HistoryAction, in id: PageID) throws(PagehostError) {
        let page = try page(id)
        let view = page.view
        switch action {
        case .back:
            guard webkit_web_view_can_go_back(view) != 0 else { throw PagehostError(.conflict, "page \(id) has no page to go back to") }
            webkit_web_view_go_back(view)
        case .forward:
            guard webkit_web_view_can_go_forward(view) != 0 else { throw PagehostError(.conflict, "page \(id) has no page to go forward to") }
            webkit_web_view_go_forward(view)
        case .reload:
            page.reload()
        case .stop:
            webkit_web_view_stop_loading(view)
        }
    }

    public func find(_ command: FindCommand, in id: PageID) async throws(PagehostError) -> Int? {
        try await page(id).find(command)
    }

    public func scroll(_ id: PageID, to target: ScrollTarget) async throws(PagehostError) {
        let page = try page(id)
        let found: JSONValue
        switch target {
        case .position(let x, let y):
            found = try await evaluate("window.scrollTo(x, y); return true", arguments: [("x", .number(x)), ("y", .number(y))],
                                       in: id, world: PageObserver.world)
        case .element(let selector):
            found = try await elementScript("e.scrollIntoView({ block: 'start', inline: 'nearest' }); return true",
                                            selector: selector, in: id)
        }
        guard found == .bool(true) else { throw PagehostError(.notFound, "no element matches the selector") }
        page.readObservedState()
    }

    public func click(_ selector: String, in id: PageID) async throws(PagehostError) {
        let page = try page(id)
        let point = try await elementScript("""
            e.scrollIntoView({ block: 'center', inline: 'center' });
            const r = e.getBoundingClientRect();
            return { x: r.left + r.width / 2, y: r.top + r.height / 2, width: r.width, height: r.height };
            """, selector: selector, in: id)
        guard let x = point["x"]?.doubleValue, let y = point["y"]?.doubleValue else {
            throw PagehostError(.notFound, "no element matches the selector")
        }
        guard (point["width"]?.doubleValue ?? 0) > 0, (point["height"]?.doubleValue ?? 0) > 0 else {
            throw PagehostError(.conflict, "the element has no size on the page (hidden?): it cannot be clicked")
        }
        // The page may have closed while the script ran: its view is gone.
        guard !page.isClosed else { throw .noPage(id) }
        ph_send_click(ph_widget(page.view), x, y)
    }

    /// Runs `body` in Pagehost's isolated world with `e` bound to the first element matching `selector`;
    /// answers false when nothing matches, and a bad selector is a `bad_request`.
    private func elementScript(_ body: String, selector: String, in id: PageID) async throws(PagehostError) -> JSONValue {
        let result = try await evaluate("""
            let e;
            try { e = document.querySelector(selector); } catch (error) { return { invalidSelector: String(error.message) }; }
            if (!e) return false;
            \(body)
            """, arguments: [("selector", .string(selector))], in: id, world: PageObserver.world)
        if let message = result["invalidSelector"]?.stringValue {
            throw PagehostError(.badRequest, "\"\(selector)\" is not a valid CSS selector: \(message)")
        }
        return result
    }
}
