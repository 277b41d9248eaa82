import PagehostCore

/// The page toolbox's HTTP routes (issue 6), under `/api/sessions/{sid}/pages/{pid}/`:
/// `back`, `forward`, `reload`, `stop`, `find` (POST searches, DELETE clears), `find/next`, `find/previous`,
/// `scroll`, `click` — all POST but the clearing DELETE.
enum PageToolRoutes {
    /// The last path segment of the five-segment routes.
    static let actions: Set<String> = ["back", "forward", "reload", "stop", "find", "scroll", "click"]

    /// `rest`: the path after `/api`, split: `sessions, sid, pages, pid, action[, step]`.
    static func match(_ method: HTTPRequest.Method, _ rest: [String]) throws(PagehostError) -> Result<APIRoute, APIRoute.Failure> {
        let sid = try WireIDs.session(rest[1], field: "sessionId")
        let pid = try WireIDs.page(rest[3], field: "pageId")
        if rest.count == 6 {
            switch rest[5] {
            case "next": return post(method, .pageTool(sid, pid, .findNext))
            case "previous": return post(method, .pageTool(sid, pid, .findPrevious))
            default: return .failure(.notFound)
            }
        }
        switch rest[4] {
        case "find":
            switch method {
            case .post: return .success(.pageTool(sid, pid, .find))
            case .delete: return .success(.pageTool(sid, pid, .findClear))
            default: return .failure(.methodNotAllowed(allowed: [.post, .delete]))
            }
        case "scroll": return post(method, .pageTool(sid, pid, .scroll))
        case "click": return post(method, .pageTool(sid, pid, .click))
        default:
            guard let action = HistoryAction(rawValue: rest[4]) else { return .failure(.notFound) }
            return post(method, .pageTool(sid, pid, .history(action)))
        }
    }

    private static func post(_ method: HTTPRequest.Method, _ route: APIRoute) -> Result<APIRoute, APIRoute.Failure> {
        method == .post ? .success(route) : .failure(.methodNotAllowed(allowed: [.post]))
    }
}

extension HTTPHandler {
    /// Runs a tool: 204 when it answers nothing, else `{"matches": N}`.
    func pageTool(_ tool: PageTool, _ sid: SessionID, _ pid: PageID, _ body: JSONValue) throws(PagehostError) -> Reply {
        let work = try commands.pageTool(tool, sid, pid, body)
        return .later {
            do throws(PagehostError) {
                switch try await work() {
                case .none: return .noContent()
                case .matches(let n): return .json(.object([("matches", .int(n))]))
                }
            } catch {
                return .error(error)
            }
        }
    }
}
