import Foundation
import PagehostClient
import PagehostCore

/// `pagehost load`'s command line, parsed and checked.
struct LoadOptions: Sendable {
    enum Target: Sendable, Equatable {
        case url(String)
        /// The page's HTML, read from the file given (sent inline: the server never reads local files).
        case html(String, file: String)
    }

    var target: Target = .url("about:blank")
    var sessions = 10
    var concurrency = 4
    var popupMode = PopupMode.stacked
    /// How the load client answers each dialog through the API.
    var acceptDialogs = true
    /// Seconds to keep the sessions open once they are all up (and quiet).
    var hold: Double = 0
    /// Close every popup through the API this many seconds after the sessions are up.
    var closePopupsAfter: Double?
    var server: ServerAddress?
    var token: String?
    var json = false
    /// Seconds a session may take from its request to its main page's loaded (or failed) navigation.
    var timeout: Double = 30
    /// Passed through as the session option `processModel` when given (`perSession` or `shared`).
    var processModel: String?
    var viewport: Viewport?

    static let usage = """
        usage: pagehost load (--url URL | --html FILE) [OPTIONS]

        Opens many sessions through the public API (HTTP + the WebSocket stream), watches them on the stream,
        closes them and reports what it saw: sessions created and failed, create and load times, popups,
        dialogs, stream events and seq gaps, errors by kind, and the server's peak memory. Without --server
        it starts a pagehost server in this process on a free loopback port. Ctrl-C closes what it opened.
        Exit status: 0 when every session loaded, 1 when any failed, 2 for bad arguments.

        options:
          --url URL                    the page each session opens (http, https, about or data URL)
          --html FILE                  or this HTML file's content, sent inline
          --sessions N                 sessions to open (default: 10)
          --concurrency C              sessions being opened at once (default: 4)
          --popup-mode stacked|tabbed  how sessions show popups (default: stacked)
          --dialogs accept|dismiss     how the client answers every dialog through the API (default: accept)
          --hold SECONDS               keep the sessions open this long once they are up (default: 0)
          --close-popups SECONDS       close every popup through the API this long after the sessions are up
          --timeout SECONDS            longest a session may take to load its main page (default: 30)
          --process-model perSession|shared
                                       the session option processModel (default: the server's)
          --viewport WIDTHxHEIGHT      the page size in CSS pixels (default: the server's)
          --server URL                 a running pagehost (http://HOST:PORT) instead of one in this process
          --token TOKEN                its API token (default: $PAGEHOST_TOKEN)
          --json                       print one JSON object instead of the table
          -h, --help                   show this help

        """

    /// Parses `arguments`; nil for `--help`; throws `UsageError` naming the bad argument.
    static func parse(_ arguments: [String], environment: [String: String] = ProcessInfo.processInfo.environment,
                      currentDirectory: String = FileManager.default.currentDirectoryPath) throws -> LoadOptions? {
        var options = LoadOptions()
        var targetGiven = false
        var reader = ArgumentReader(arguments)
        func setTarget(_ target: Target) throws {
            guard !targetGiven else { throw UsageError("give one of --url and --html") }
            targetGiven = true
            options.target = target
        }
        while let argument = reader.next() {
            switch argument {
            case "-h", "--help":
                return nil
            case "--url":
                let url = try reader.value(argument)
                guard url.contains(":") else { throw UsageError("--url must be an absolute URL (http://…), not '\(url)'") }
                try setTarget(.url(url))
            case "--html":
                let file = try reader.value(argument)
                let path = file.hasPrefix("/") ? file : currentDirectory + "/" + file
                guard let data = FileManager.default.contents(atPath: path) else { throw UsageError("--html: cannot read '\(file)'") }
                try setTarget(.html(String(decoding: data, as: UTF8.self), file: file))
            case "--sessions":
                options.sessions = try reader.count(argument, 1...100_000)
            case "--concurrency":
                options.concurrency = try reader.count(argument, 1...256)
            case "--popup-mode":
                options.popupMode = try reader.choice(argument, PopupMode.self)
            case "--dialogs":
                options.acceptDialogs = try reader.choice(argument, DialogPolicy.self, allowed: [.accept, .dismiss]) == .accept
            case "--hold":
                options.hold = try reader.seconds(argument, allowZero: true)
            case "--close-popups":
                options.closePopupsAfter = try reader.seconds(argument, allowZero: true)
            case "--timeout":
                options.timeout = try reader.seconds(argument, allowZero: false)
            case "--process-model":
                options.processModel = try reader.choice(argument, ProcessModel.self).rawValue
            case "--viewport":
                options.viewport = try reader.viewport(argument)
            case "--server":
                let text = try reader.value(argument)
                guard let address = ServerAddress(url: text) else { throw UsageError("--server must be http://HOST:PORT, not '\(text)'") }
                options.server = address
            case "--token":
                options.token = try reader.value(argument)
            case "--json":
                options.json = true
            default:
                throw UsageError(argument.hasPrefix("-") ? "unknown option '\(argument)'" : "unexpected argument '\(argument)'")
            }
        }
        guard targetGiven else { throw UsageError("--url URL or --html FILE is required") }
        if options.token == nil, let token = environment["PAGEHOST_TOKEN"], !token.isEmpty { options.token = token }
        if options.token != nil, options.server == nil { throw UsageError("--token goes with --server") }
        return options
    }

    /// The body of `POST /api/sessions` for session number `index`.
    func sessionBody(label: String) -> JSONValue {
        var members: [(String, JSONValue)] = []
        switch target {
        case .url(let url): members.append(("url", .string(url)))
        case .html(let html, _): members.append(("html", .string(html)))
        }
        members += [("label", .string(label)), ("popupMode", .string(popupMode.rawValue)), ("dialogPolicy", "ask")]
        if let processModel { members.append(("processModel", .string(processModel))) }
        if let viewport { members.append(("viewport", .object([("width", .int(viewport.width)), ("height", .int(viewport.height))]))) }
        return .object(members)
    }

    /// What the report says was loaded.
    var targetDescription: String {
        switch target {
        case .url(let url): return url
        case .html(_, let file): return file
        }
    }
}
