import PagehostCore

/// The page toolbox commands (issue 6), shared by HTTP routes and stream commands: history, find, scroll and
/// click. Every input is validated before the page is touched, so a refused command changes nothing.
///
/// Thread: LoopActor.
enum PageTool: Equatable, Sendable {
    case history(HistoryAction)
    case find
    case findNext
    case findPrevious
    case findClear
    case scroll
    case click

    /// The stream op of each tool.
    var op: String {
        switch self {
        case .history(let action): return action.rawValue
        case .find: return "find"
        case .findNext: return "findNext"
        case .findPrevious: return "findPrevious"
        case .findClear: return "findClear"
        case .scroll: return "scroll"
        case .click: return "click"
        }
    }

    /// The members each takes in a body (and in a stream command besides `sessionId` and `pageId`).
    var fields: Set<String> {
        switch self {
        case .find: return ["text", "caseInsensitive"]
        case .scroll: return ["x", "y", "selector"]
        case .click: return ["selector"]
        default: return []
        }
    }

    static let all: [PageTool] = HistoryAction.allCases.map { .history($0) } + [.find, .findNext, .findPrevious, .findClear, .scroll, .click]
}

extension APICommands {
    /// What a tool answers: nothing (HTTP 204, stream result null) or `{"matches": N}`.
    enum ToolAnswer {
        case none
        case matches(Int)

        var json: JSONValue {
            switch self {
            case .none: return .null
            case .matches(let n): return .object([("matches", .int(n))])
            }
        }
    }

    /// Validates the input and the page now and returns the work to await.
    func pageTool(_ tool: PageTool, _ sid: SessionID, _ pid: PageID, _ body: JSONValue, context: String = "body")
        throws(PagehostError) -> @LoopActor () async throws(PagehostError) -> ToolAnswer
    {
        let host = self.host
        switch tool {
        case .history(let action):
            try SessionRequestDecoder.noFields(body, context: context)
            try checkPage(pid, in: sid)
            try host.perform(action, in: pid)
            return { () async throws(PagehostError) -> ToolAnswer in .none }
        case .find, .findNext, .findPrevious, .findClear:
            let command: FindCommand
            switch tool {
            case .find: command = try SessionRequestDecoder.find(body, context: context)
            case .findNext: command = .next
            case .findPrevious: command = .previous
            default: command = .clear
            }
            if tool != .find { try SessionRequestDecoder.noFields(body, context: context) }
            try checkPage(pid, in: sid)
            return { () async throws(PagehostError) -> ToolAnswer in
                let count = try await host.find(command, in: pid)
                return count.map { .matches($0) } ?? .none
            }
        case .scroll:
            let target = try SessionRequestDecoder.scroll(body, context: context)
            try checkPage(pid, in: sid)
            return { () async throws(PagehostError) -> ToolAnswer in
                try await host.scroll(pid, to: target)
                return .none
            }
        case .click:
            let selector = try SessionRequestDecoder.click(body, context: context)
            try checkPage(pid, in: sid)
            return { () async throws(PagehostError) -> ToolAnswer in
                try await host.click(selector, in: pid)
                return .none
            }
        }
    }
}
