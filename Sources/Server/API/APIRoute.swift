import PagehostCore

/// The HTTP API's routes (DESIGN.md section 4), matched from a method and a path. Ids are checked for form
/// here; whether they name anything is the host's business.
enum APIRoute: Equatable {
    case health
    case listSessions
    case createSession
    case getSession(SessionID)
    /// The session's timeline (open or closed).
    case sessionEvents(SessionID)
    /// The role of the request's token.
    case whoami
    case deleteSession(SessionID)
    case closePage(SessionID, PageID)
    case navigate(SessionID, PageID)
    case evaluate(SessionID, PageID)
    case screenshot(SessionID, PageID)
    case answerDialog(SessionID, DialogID)
    /// History, find, scroll and click in a page (PageToolRoutes).
    case pageTool(SessionID, PageID, PageTool)
    case openAPI
    case metrics
    case stream

    enum Failure: Error, Equatable {
        /// No such path.
        case notFound
        /// The path exists with other methods.
        case methodNotAllowed(allowed: [HTTPRequest.Method])
        case badID(PagehostError)
    }

    /// The route of an API path (`/api/…` or `/metrics`); nil when the path is not an API path at all.
    static func match(_ method: HTTPRequest.Method, _ path: String) -> Result<APIRoute, Failure>? {
        let s = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map(String.init)
        if s == ["metrics"] { return only(.get, method, .metrics) }
        guard s.first == "api" else { return nil }
        let rest = Array(s.dropFirst())
        do throws(PagehostError) {
            switch rest.count {
            case 1 where rest[0] == "health": return only(.get, method, .health)
            case 1 where rest[0] == "openapi.json": return only(.get, method, .openAPI)
            case 1 where rest[0] == "stream": return only(.get, method, .stream)
            case 1 where rest[0] == "whoami": return only(.get, method, .whoami)
            case 3 where rest[0] == "sessions" && rest[2] == "events":
                return only(.get, method, .sessionEvents(try WireIDs.session(rest[1], field: "sessionId")))
            case 1 where rest[0] == "sessions":
                switch method {
                case .get: return .success(.listSessions)
                case .post: return .success(.createSession)
                default: return .failure(.methodNotAllowed(allowed: [.get, .post]))
                }
            case 2 where rest[0] == "sessions":
                let sid = try WireIDs.session(rest[1], field: "sessionId")
                switch method {
                case .get: return .success(.getSession(sid))
                case .delete: return .success(.deleteSession(sid))
                default: return .failure(.methodNotAllowed(allowed: [.get, .delete]))
                }
            case 4 where rest[0] == "sessions" && rest[2] == "dialogs":
                let sid = try WireIDs.session(rest[1], field: "sessionId")
                let did = try WireIDs.dialog(rest[3], field: "dialogId")
                return only(.post, method, .answerDialog(sid, did))
            case 5 where rest[0] == "sessions" && rest[2] == "pages" && PageToolRoutes.actions.contains(rest[4]),
                 6 where rest[0] == "sessions" && rest[2] == "pages" && rest[4] == "find":
                return try PageToolRoutes.match(method, rest)
            case 5 where rest[0] == "sessions" && rest[2] == "pages":
                let action = rest[4]
                guard ["close", "navigate", "evaluate", "screenshot"].contains(action) else { return .failure(.notFound) }
                let sid = try WireIDs.session(rest[1], field: "sessionId")
                let pid = try WireIDs.page(rest[3], field: "pageId")
                switch action {
                case "close": return only(.post, method, .closePage(sid, pid))
                case "navigate": return only(.post, method, .navigate(sid, pid))
                case "evaluate": return only(.post, method, .evaluate(sid, pid))
                default: return only(.get, method, .screenshot(sid, pid))
                }
            default:
                return .failure(.notFound)
            }
        } catch {
            return .failure(.badID(error))
        }
    }

    private static func only(_ allowed: HTTPRequest.Method, _ method: HTTPRequest.Method, _ route: APIRoute) -> Result<APIRoute, Failure> {
        method == allowed ? .success(route) : .failure(.methodNotAllowed(allowed: [allowed]))
    }

    /// Whether the route reads a JSON body.
    var takesBody: Bool {
        switch self {
        case .createSession, .navigate, .evaluate, .answerDialog, .pageTool: return true
        default: return false
        }
    }
}
