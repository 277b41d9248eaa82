import Foundation
import PagehostCore

/// Answers HTTP requests: health without a token; the bundled demo without a token (static, public, no
/// state); everything else only with the token. API routes go to `APICommands`, other paths to the dashboard.
///
/// Thread: LoopActor. Quick answers come back at once; slow ones (scripts, screenshots, file reads) as work
/// the transport awaits in a task on the loop, which never blocks it.
@LoopActor
final class HTTPHandler {
    enum Reply {
        case now(HTTPResponse)
        case later(@LoopActor () async -> HTTPResponse)
    }

    let commands: APICommands
    let authenticator: TokenAuthenticator
    let metrics: ServerMetrics
    let hub: StreamHub
    let dashboard: StaticFiles
    let demo: StaticFiles
    let openAPIFile: String

    init(commands: APICommands, authenticator: TokenAuthenticator, metrics: ServerMetrics, hub: StreamHub) {
        self.commands = commands
        self.authenticator = authenticator
        self.metrics = metrics
        self.hub = hub
        let configuration = commands.configuration
        dashboard = StaticFiles(root: configuration.adminUIDirectory,
                                headers: [("content-security-policy", StaticFiles.dashboardPolicy)])
        demo = StaticFiles(root: configuration.demoDirectory, headers: [])
        openAPIFile = configuration.openAPIFile
    }

    func handle(_ request: HTTPRequest) -> Reply {
        let route = APIRoute.match(request.method, request.path)
        if case .success(.health)? = route { return .now(.json(commands.health())) }
        if request.path == "/demo" { return .now(redirect(to: "/demo/")) }
        if request.path.hasPrefix("/demo/") {
            guard request.method == .get else { return .now(methodNotAllowed([.get])) }
            let relative = String(request.path.dropFirst("/demo/".count))
            let demo = self.demo
            return .later { await demo.response(for: relative) }
        }
        guard let credential = authenticator.credential(request) else {
            return .now(HTTPResponse.error(status: 401, code: "unauthorized",
                                           message: "a token is required: Authorization: Bearer <token>, ?token=, or the pagehost_token cookie")
                .with(header: "www-authenticate", "Bearer"))
        }
        guard let route else { return dashboardFile(request, tokenFrom: credential.source) }
        if !credential.role.mayRequest(request.method), case .success = route {
            let refusal = Role.refusal("\(request.method.rawValue) \(request.path)")
            return .now(.error(status: 403, code: refusal.code, message: refusal.message))
        }
        switch route {
        case .failure(.notFound):
            return .now(.error(status: 404, code: "not_found", message: "no route \(request.method.rawValue) \(request.path)"))
        case .failure(.methodNotAllowed(let allowed)):
            return .now(methodNotAllowed(allowed))
        case .failure(.badID(let error)):
            return .now(.error(error))
        case .success(let route):
            return handle(route, request, role: credential.role)
        }
    }

    private func handle(_ route: APIRoute, _ request: HTTPRequest, role: Role) -> Reply {
        do throws(PagehostError) {
            var body = JSONValue.object([])
            if route.takesBody { body = try Self.parseBody(request.body) }
            switch route {
            case .health: return .now(.json(commands.health()))
            case .listSessions: return .now(.json(commands.listSessions()))
            case .createSession:
                let session = try commands.createSession(body)
                let id = session["id"]?.stringValue ?? ""
                return .now(HTTPResponse.json(session, status: 201).with(header: "location", "/api/sessions/\(id)"))
            case .getSession(let sid): return .now(.json(try commands.session(sid)))
            case .sessionEvents(let sid): return .now(.json(try commands.events(sid)))
            case .whoami: return .now(.json(.object([("role", .string(role.rawValue))])))
            case .deleteSession(let sid):
                try commands.closeSession(sid)
                return .now(.noContent())
            case .closePage(let sid, let pid):
                let work = try commands.closePage(sid, pid)
                return .later {
                    do throws(PagehostError) { return .json(try await work()) } catch { return .error(error) }
                }
            case .navigate(let sid, let pid): return .now(.json(try commands.navigate(sid, pid, body)))
            case .evaluate(let sid, let pid):
                let work = try commands.evaluate(sid, pid, body)
                return .later {
                    do throws(PagehostError) { return .json(.object([("result", try await work())])) } catch { return .error(error) }
                }
            case .screenshot(let sid, let pid):
                let work = try commands.screenshot(sid, pid)
                return .later {
                    do throws(PagehostError) {
                        let png = try await work()
                        return HTTPResponse(status: 200, headers: [("content-type", "image/png"), ("cache-control", "no-store")], body: png)
                    } catch { return .error(error) }
                }
            case .answerDialog(let sid, let did): return .now(.json(try commands.answerDialog(sid, did, body)))
            case .pageTool(let sid, let pid, let tool): return try pageTool(tool, sid, pid, body)
            case .openAPI:
                let url = URL(fileURLWithPath: openAPIFile)
                let folder = StaticFiles(root: url.deletingLastPathComponent().path, headers: [])
                let name = url.lastPathComponent
                return .later { await folder.response(for: name) }
            case .metrics:
                let (metrics, host, hub) = (self.metrics, commands.host, self.hub)
                return .later {
                    let tree = await metrics.processTree.current()
                    let text = metrics.render(host: host, hub: hub, tree: tree)
                    return HTTPResponse(status: 200, headers: [("content-type", "text/plain; version=0.0.4; charset=utf-8")],
                                        body: Array(text.utf8))
                }
            case .stream:
                return .now(.error(status: 400, code: "bad_request",
                                   message: "/api/stream is a WebSocket: connect with Upgrade: websocket and subprotocol pagehost.v1"))
            }
        } catch {
            return .now(.error(error))
        }
    }

    /// A request body as JSON; an empty body is an empty object.
    static func parseBody(_ bytes: [UInt8]) throws(PagehostError) -> JSONValue {
        guard !bytes.isEmpty else { return .object([]) }
        do {
            return try JSONParser.parse(bytes)
        } catch {
            throw PagehostError(.badRequest, "body is not valid JSON: \(error)")
        }
    }

    /// The dashboard's files. `?token=` on a page sets the cookie and redirects to the same path without it,
    /// so the token leaves the address bar and the dashboard's own requests carry the cookie.
    private func dashboardFile(_ request: HTTPRequest, tokenFrom source: TokenAuthenticator.Source) -> Reply {
        guard request.method == .get else { return .now(methodNotAllowed([.get])) }
        if source == .query, let token = request.query["token"] {
            let cookie = "\(TokenAuthenticator.cookieName)=\(token); Path=/; HttpOnly; SameSite=Strict"
            // Only a local path: "//host" would send the browser elsewhere.
            let path = request.path.hasPrefix("//") ? "/" : request.path
            return .now(redirect(to: path).with(header: "set-cookie", cookie))
        }
        let dashboard = self.dashboard
        let relative = String(request.path.dropFirst())
        return .later { await dashboard.response(for: relative) }
    }

    private func redirect(to location: String) -> HTTPResponse {
        HTTPResponse(status: 303, headers: [("location", location), ("cache-control", "no-store")])
    }

    private func methodNotAllowed(_ allowed: [HTTPRequest.Method]) -> HTTPResponse {
        HTTPResponse.error(status: 405, code: "method_not_allowed", message: "allowed: \(allowed.map(\.rawValue).joined(separator: ", "))")
            .with(header: "allow", allowed.map(\.rawValue).joined(separator: ", "))
    }
}
