import MainLoop
import PagehostCore

/// The Pagehost server: the HTTP API, the live stream and the dashboard's files, on one port, for one
/// `SessionHost`. It holds no session state of its own; it renders the host's state and events and turns
/// requests into host commands.
///
/// Thread: LoopActor. Create it after `MainLoop.shared.start()`; lws runs as a guest on that loop.
@LoopActor
public final class PagehostServer {
    public let host: SessionHost
    public let configuration: ServerConfiguration
    /// The token clients must present (configured or generated).
    public let token: String
    let hub: StreamHub
    let metrics = ServerMetrics()
    private let authenticator: TokenAuthenticator
    private var originPolicy: OriginPolicy
    private lazy var http = HTTPHandler(commands: commands, authenticator: authenticator, metrics: metrics, hub: hub)
    private var commands: APICommands { APICommands(host: host, configuration: configuration) }
    private var transport: LWSTransport?
    /// The port listened on, once started.
    public private(set) var port: Int?

    public init(host: SessionHost, configuration: ServerConfiguration) {
        self.host = host
        self.configuration = configuration
        token = configuration.token ?? TokenAuthenticator.generate()
        authenticator = TokenAuthenticator(token: token, viewerToken: configuration.viewerToken)
        hub = StreamHub(host: host, limits: configuration.limits)
        originPolicy = OriginPolicy(host: configuration.host, port: configuration.port, extra: configuration.allowedOrigins)
    }

    /// Starts listening; returns the port (the one picked when the configuration says 0).
    @discardableResult
    public func start() throws(PagehostError) -> Int {
        if let port { return port }
        let transport = LWSTransport(handler: self, socketSendBufferBytes: configuration.limits.streamSocketSendBufferBytes)
        let port = try transport.start(host: configuration.host, port: configuration.port, loop: MainLoop.shared.rawLoop)
        self.transport = transport
        self.port = port
        originPolicy = OriginPolicy(host: configuration.host, port: port, extra: configuration.allowedOrigins)
        metrics.start(observing: host.events)
        hub.start()
        // A session is watched while a stream client gets its events: it is then never idle.
        host.isWatched = { [weak hub] session in hub?.watches(session) ?? false }
        return port
    }

    /// A server dropped without `stop()` stops listening too.
    isolated deinit {
        transport?.stop()
    }

    /// Closes every connection and stops listening. Sessions stay open (the caller closes them).
    public func stop() {
        transport?.stop()
        transport = nil
        hub.stop()
        host.isWatched = nil
        metrics.stop(observing: host.events)
        port = nil
    }

    /// The base URL clients reach: the configured host, or loopback when listening on every address.
    public var baseURL: String {
        let name = ["0.0.0.0", "::", ""].contains(configuration.host) ? "127.0.0.1"
            : configuration.host.contains(":") ? "[\(configuration.host)]" : configuration.host
        return "http://\(name):\(port ?? configuration.port)"
    }

    /// The dashboard's address with the token, which sets the cookie and redirects to `/`.
    public var dashboardURL: String { "\(baseURL)/?token=\(token)" }

    /// Opens the demo session on the bundled demo page (`/demo/`).
    @discardableResult
    public func openDemoSession() throws(PagehostError) -> SessionSnapshot {
        var options = configuration.sessionDefaults
        options.label = "Demo: popups and dialogs"
        options.maxPopups = min(options.maxPopups, configuration.limits.pagesPerSession - 1)
        return try host.createSession(options, loading: .url("\(baseURL)/demo/index.html"))
    }

    /// Stream clients connected now.
    public var streamClientCount: Int { hub.clientCount }
}

extension PagehostServer: TransportHandler {
    func handle(_ request: HTTPRequest) -> HTTPHandler.Reply {
        http.handle(request)
    }

    var maxBodyBytes: Int { configuration.limits.requestBodyBytes }

    func refuseUpgrade(_ request: HTTPRequest) -> HTTPResponse? {
        let refusal: HTTPResponse?
        if request.path != "/api/stream" {
            refusal = .error(status: 404, code: "not_found", message: "the stream is at /api/stream")
        } else if authenticator.authenticate(request) == nil {
            refusal = .error(status: 401, code: "unauthorized", message: "a token is required")
        } else if !originPolicy.allows(request.headers["origin"]) {
            refusal = .error(status: 403, code: "forbidden",
                             message: "origin \(request.headers["origin"] ?? "") may not open the stream (allowedOrigins in the config)")
        } else if let error = Self.streamParameterError(request) {
            refusal = .error(error)
        } else if hub.isFull {
            refusal = .error(PagehostError(.limit, "the server already has its maximum of \(configuration.limits.streamClients) stream clients"))
        } else {
            refusal = nil
        }
        if let refusal { metrics.countStreamRefused(status: refusal.status) }
        return refusal
    }

    /// `?since=` must be a number and `?session=` a session id.
    static func streamParameterError(_ request: HTTPRequest) -> PagehostError? {
        if let since = request.query["since"], UInt64(since) == nil {
            return PagehostError(.badRequest, "query parameter since must be an event seq (a whole number)")
        }
        if let session = request.query["session"] {
            do { _ = try WireIDs.session(session, field: "query parameter session") } catch { return error }
        }
        return nil
    }

    func streamOpened(_ request: HTTPRequest, wake: @escaping @LoopActor () -> Void) -> StreamClient {
        metrics.countStreamConnection()
        let client = hub.connect(sessionFilter: request.query["session"].map(SessionID.init),
                                 since: request.query["since"].flatMap { UInt64($0) }, wake: wake)
        client.role = authenticator.credential(request)?.role ?? .viewer
        return client
    }

    func nextStreamMessage(for client: StreamClient) -> [UInt8]? {
        hub.nextMessage(for: client)
    }

    func streamReceived(_ message: [UInt8], from client: StreamClient) {
        StreamCommands(commands: commands, role: client.role).run(message) { [weak client] answer in
            client?.sendControl(answer)
        }
    }

    func streamClosed(_ client: StreamClient) {
        hub.disconnect(client)
    }

    func answered(status: Int) {
        metrics.countRequest(status: status)
    }
}
