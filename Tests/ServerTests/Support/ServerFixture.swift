import Foundation
import MainLoop
import PagehostCore
import Server
import WebKitEngine

/// A real server on a free 127.0.0.1 port for one test, over a real WebKitEngine (or the FakeEngine), with its
/// own SessionHost. Tests talk to it with the real clients in this folder.
@LoopActor
final class ServerFixture {
    enum EngineKind { case webkit, fake }

    let host: SessionHost
    let server: PagehostServer
    let port: Int
    let token: String
    /// Set when the fixture runs on the FakeEngine.
    let fake: FakeEngine?

    /// The repository root, for the admin-ui, demo and docs folders.
    nonisolated static let root: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { url.deleteLastPathComponent() }
        return url.path
    }()

    nonisolated static func configuration(_ adjust: (inout ServerConfiguration) -> Void = { _ in }) -> ServerConfiguration {
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.token = "test-token-\(UUID().uuidString)"
        configuration.demo = false
        configuration.adminUIDirectory = root + "/admin-ui"
        configuration.demoDirectory = root + "/examples/demo"
        configuration.openAPIFile = root + "/docs/openapi.json"
        adjust(&configuration)
        return configuration
    }

    private init(host: SessionHost, server: PagehostServer, port: Int, fake: FakeEngine?) {
        self.host = host
        self.server = server
        self.port = port
        self.token = server.token
        self.fake = fake
    }

    static func start(_ kind: EngineKind = .webkit,
                      _ adjust: (inout ServerConfiguration) -> Void = { _ in }) throws -> ServerFixture {
        let configuration = Self.configuration(adjust)
        let engine: any PageEngine
        var fake: FakeEngine?
        switch kind {
        case .webkit:
            engine = try WebKitEngine(customSchemes: configuration.customSchemes,
                                      pagesPerProcess: configuration.pagesPerProcess,
                                      navigationTimeout: configuration.navigationTimeout,
                                      javascriptCollectionThresholdMB: configuration.javascriptCollectionThreshold)
        case .fake:
            let double = FakeEngine()
            fake = double
            engine = double
        }
        let host = SessionHost(engine: engine, limits: configuration.hostLimits)
        let server = PagehostServer(host: host, configuration: configuration)
        let port = try server.start()
        return ServerFixture(host: host, server: server, port: port, fake: fake)
    }

    func stop() {
        server.stop()
        host.closeAllSessions()
    }

    nonisolated var http: HTTPTestClient { HTTPTestClient(port: port, token: token) }

    nonisolated func stream(_ query: String = "", origin: String? = nil, receiveBufferBytes: Int? = nil) async throws -> WebSocketTestClient {
        try await WebSocketTestClient.connect(port: port, path: "/api/stream" + query, token: token, origin: origin,
                                              receiveBufferBytes: receiveBufferBytes)
    }
}

/// Starts the shared loop (once) and a fixture on it.
func startServer(_ kind: ServerFixture.EngineKind = .webkit,
                 _ adjust: @escaping @Sendable (inout ServerConfiguration) -> Void = { _ in }) async throws -> ServerFixture {
    MainLoop.shared.start()
    return try await ServerFixture.start(kind, adjust)
}
