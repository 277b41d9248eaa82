import PagehostCore

/// Everything `pagehost serve` can be told: where to listen, the token, every limit, and the session
/// defaults. `config/pagehost.json` holds the same keys (docs/configuration.md lists them); flags and
/// `PAGEHOST_*` variables override the file.
public struct ServerConfiguration: Sendable {
    /// The address to listen on. Loopback by default: the API can run scripts in pages.
    public var host = "127.0.0.1"
    /// 0 picks a free port.
    public var port = 8080
    /// The operator's token (may do everything). nil: a random token is generated at start.
    public var token: String?
    /// The viewer's token (may read: GET requests and the stream, no commands). nil: no viewer token.
    public var viewerToken: String?
    /// Whether a demo session opens at start.
    public var demo = true
    /// Browser origins (`http://host:port`) allowed to open the stream besides the server's own.
    public var allowedOrigins: [String] = []
    /// The folder served at `/` (the dashboard).
    public var adminUIDirectory = "admin-ui"
    /// The folder served at `/demo/`.
    public var demoDirectory = "examples/demo"
    /// The OpenAPI description served at `/api/openapi.json`.
    public var openAPIFile = "docs/openapi.json"
    public var limits = Limits()
    /// What `POST /api/sessions` uses for every option the body leaves out.
    public var sessionDefaults = SessionOptions()
    /// URL schemes served from folders (checked when the file is read: not an engine's scheme, the folder exists).
    public var customSchemes: [CustomScheme] = []
    /// Pages of `shared` sessions one web process holds.
    public var pagesPerProcess = 16
    /// A navigation that has not finished after this long is stopped and fails.
    public var navigationTimeout: Duration = .seconds(30)
    /// The JavaScript heap size (MB) up to which a web process lets garbage pile up before it collects
    /// (`WebKitEngine`'s `javascriptCollectionThresholdMB`, the same default).
    public var javascriptCollectionThreshold = 4

    public struct Limits: Sendable {
        /// Sessions open at once; more answer 429.
        public var sessions = 200
        /// Pages per session, the main page included; popups past it are blocked (reason `limit`).
        public var pagesPerSession = 21
        /// Request bodies over this answer 413. Also the largest stream command accepted.
        public var requestBodyBytes = 1 << 20
        /// Stream clients at once; more answer 429.
        public var streamClients = 64
        /// Bytes queued for one stream client; past it the queued events are dropped and the client gets a
        /// fresh snapshot once it reads again.
        public var streamClientBufferBytes = 1 << 20
        /// Once this many bytes are queued for a client, `page.updated` events for the same page merge.
        public var streamCoalesceAfterBytes = 64 << 10
        /// The kernel send buffer of each stream socket, so a stalled client also holds little kernel memory.
        public var streamSocketSendBufferBytes = 128 << 10
        /// Events kept for `?since=` resumption.
        public var eventLogCapacity = 10_000
        /// The rest of the host's limits (`HostLimits`): text length, refusal reports, dialog flood, closed
        /// session timelines, the admin close's grace period.
        public var maxTextLength = HostLimits().maxTextLength
        public var refusalReportInterval = HostLimits().refusalReportInterval
        public var dialogLimit = HostLimits().dialogLimit
        public var dialogWindow = HostLimits().dialogWindow
        public var closedSessionRetention = HostLimits().closedSessionRetention
        public var closedSessionLimit = HostLimits().closedSessionLimit
        public var closedSessionEvents = HostLimits().closedSessionEvents
        public var closeGracePeriod = HostLimits().closeGracePeriod

        public init() {}
    }

    public init() {}

    /// The host's limits from this configuration.
    public var hostLimits: HostLimits {
        var limits = HostLimits()
        limits.maxSessions = self.limits.sessions
        limits.eventLogCapacity = self.limits.eventLogCapacity
        limits.maxTextLength = self.limits.maxTextLength
        limits.refusalReportInterval = self.limits.refusalReportInterval
        limits.dialogLimit = self.limits.dialogLimit
        limits.dialogWindow = self.limits.dialogWindow
        limits.closedSessionRetention = self.limits.closedSessionRetention
        limits.closedSessionLimit = self.limits.closedSessionLimit
        limits.closedSessionEvents = self.limits.closedSessionEvents
        limits.closeGracePeriod = self.limits.closeGracePeriod
        return limits
    }
}
