import Foundation
import PagehostCore
import Server
import Testing

/// Support for the page toolbox tests: a site folder served as the custom scheme `phserve` (written once per
/// test run and named in a config file, as an operator would), and helpers to create sessions and wait on
/// page state through the HTTP API.
enum ToolboxSite {
    static let scheme = "phserve"

    /// A temporary folder holding `config.json` and `site/` (the scheme's folder, relative in the file).
    static let folder: String = {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("pagehost-toolbox-\(UUID().uuidString)")
        let site = root.appendingPathComponent("site")
        try! FileManager.default.createDirectory(at: site.appendingPathComponent("css"), withIntermediateDirectories: true)
        let files: [String: String] = [
            "index.html": "<!doctype html><title>Lakes</title><link rel=stylesheet href=css/site.css><h1 id=h>Lakes</h1>",
            "css/site.css": "h1 { color: rgb(0, 128, 0); }",
            "one.html": "<!doctype html><title>One</title><p>one",
            "two.html": "<!doctype html><title>Two</title><p>two",
        ]
        for (name, text) in files {
            try! Data(text.utf8).write(to: site.appendingPathComponent(name))
        }
        let config = #"{"demo": false, "port": 0, "customSchemes": {"\#(scheme)": "site"}, "engine": {"navigationTimeout": 60}}"#
        try! Data(config.utf8).write(to: root.appendingPathComponent("config.json"))
        return root.path
    }()

    static var configFile: String { folder + "/config.json" }

    static func url(_ file: String) -> String { "\(scheme)://app/\(file)" }
}

extension ServerFixture {
    /// A server whose custom schemes come from `ToolboxSite`'s config file.
    /// Nonisolated: it must start the loop (in `startServer`) before anything hops onto it.
    nonisolated static func toolbox() async throws -> ServerFixture {
        let loaded = try ServerConfiguration.load(file: ToolboxSite.configFile)
        return try await startServer { configuration in
            configuration.customSchemes = loaded.customSchemes
            configuration.navigationTimeout = loaded.navigationTimeout
        }
    }

    /// Creates a session from a JSON body; returns its id and its main page's id.
    func createSession(_ body: String) async throws -> (sid: String, main: String) {
        let response = try await http.post("/api/sessions", json: body)
        guard response.status == 201 else { throw TestFailure("create: \(response.status) \(response.text)") }
        let session = try JSONParser.parse(response.body)
        let sid = try #require(session["id"]?.stringValue)
        let main = try #require(session["pages"]?.arrayValue?.first?["id"]?.stringValue)
        return (sid, main)
    }

    /// The page's state as the API shows it.
    func page(_ sid: String, _ pid: String) async throws -> JSONValue? {
        let response = try await http.get("/api/sessions/\(sid)")
        guard response.status == 200 else { return nil }
        return try JSONParser.parse(response.body)["pages"]?.arrayValue?.first { $0["id"]?.stringValue == pid }
    }

    /// Polls the page's state until `condition` holds (generous deadline: the machine may be loaded).
    @discardableResult
    func waitForPage(_ sid: String, _ pid: String, _ what: String, timeout: TimeInterval = 60,
                     _ condition: @Sendable (JSONValue) -> Bool) async throws -> JSONValue {
        let deadline = Date().addingTimeInterval(timeout)
        var last: JSONValue?
        while Date() < deadline {
            last = try await page(sid, pid)
            if let last, condition(last) { return last }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw TestFailure("timed out waiting for \(what); last state: \(last?.serialized ?? "none")")
    }

    /// Evaluates `script` in the page at `pagePath` until it returns `expected`.
    func waitForScript(_ pagePath: String, _ script: String, toBe expected: JSONValue, timeout: TimeInterval = 60) async throws {
        let deadline = Date().addingTimeInterval(timeout)
        var last: JSONValue?
        let body = JSONValue.object([("script", .string(script))]).serialized
        while Date() < deadline {
            last = try JSONParser.parse(try await http.post(pagePath + "/evaluate", json: body).body)["result"]
            if last == expected { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw TestFailure("timed out waiting for \(script) to be \(expected.serialized); last: \(last?.serialized ?? "none")")
    }

    /// The id of the page's latest navigation (0 before any).
    func navigationID(_ sid: String, _ pid: String) async throws -> Int {
        try await page(sid, pid)?["navigation"]?["id"]?.intValue ?? 0
    }

    /// A finished navigation to a URL.
    @discardableResult
    func waitForLoad(_ sid: String, _ pid: String, url: String, timeout: TimeInterval = 60) async throws -> JSONValue {
        try await waitForPage(sid, pid, "\(url) loaded", timeout: timeout) {
            $0["url"]?.stringValue == url && $0["navigation"]?["event"]?.stringValue == "finished"
        }
    }
}

/// A refused request: its status and that its message names `field`.
func expectRefusal(_ response: HTTPTestClient.Response, _ status: Int, naming field: String? = nil,
                   sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(response.status == status, "\(response.status) \(response.text)", sourceLocation: sourceLocation)
    if let field {
        let message = (try? JSONParser.parse(response.body))?["error"]?["message"]?.stringValue ?? ""
        #expect(message.contains(field), "message \"\(message)\" does not name \(field)", sourceLocation: sourceLocation)
    }
}
