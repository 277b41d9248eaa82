import Foundation
import PagehostCore

/// `pagehost open`'s command line, parsed and checked.
struct OpenOptions {
    var request: LoadRequest
    var session = SessionOptions()
    var duration: Double?
    var screenshotDirectory: String?

    static let usage = """
        usage: pagehost open URL|FILE [OPTIONS]

        Runs one session without a server and prints every event as one JSON line on stdout, until
        --duration passes or it is interrupted (Ctrl-C closes the session cleanly).

        options:
          --duration SECONDS          stop after this long (default: run until interrupted)
          --popup-mode stacked|tabbed how popups are shown (default: stacked)
          --dialogs accept|dismiss    how JavaScript dialogs are answered (default: accept)
          --prompt-text TEXT          the text prompts get when accepted (default: the prompt's own)
          --popups allow|block        whether pages may open popups (default: allow)
          --max-popups N              popups open at once before window.open returns null (default: 20)
          --user-agent-suffix TEXT    appended to the engine's user agent (e.g. GOOGLE_PAY_SUPPORTED)
          --viewport WIDTHxHEIGHT     the page size in CSS pixels (default: 1280x800)
          --screenshot DIR            write a PNG of every open page into DIR when the command ends
          -h, --help                  show this help

        """

    /// Parses `arguments`; throws `UsageError` with a message naming the bad argument.
    static func parse(_ arguments: [String], currentDirectory: String = FileManager.default.currentDirectoryPath) throws -> OpenOptions? {
        var target: String?
        var options = OpenOptions(request: .url("about:blank"))
        options.session.dialogPolicy = .accept
        var reader = ArgumentReader(arguments)
        while let argument = reader.next() {
            switch argument {
            case "-h", "--help":
                return nil
            case "--duration":
                options.duration = try reader.seconds(argument, atMost: .infinity)
            case "--popup-mode":
                options.session.popupMode = try reader.choice(argument, PopupMode.self)
            case "--dialogs":
                options.session.dialogPolicy = try reader.choice(argument, DialogPolicy.self, allowed: [.accept, .dismiss])
            case "--prompt-text":
                options.session.promptText = try reader.value(argument)
            case "--popups":
                options.session.popupPolicy = try reader.choice(argument, PopupPolicy.self)
            case "--max-popups":
                options.session.maxPopups = try reader.count(argument, 0...Int.max)
            case "--user-agent-suffix":
                options.session.userAgentSuffix = try reader.value(argument)
            case "--viewport":
                options.session.viewport = try reader.viewport(argument)
            case "--screenshot":
                options.screenshotDirectory = try reader.value(argument)
            default:
                if argument.hasPrefix("-") { throw UsageError("unknown option '\(argument)'") }
                guard target == nil else { throw UsageError("only one URL or FILE, got '\(target!)' and '\(argument)'") }
                target = argument
            }
        }
        guard let target else { throw UsageError("a URL or FILE to open is required") }
        options.request = .url(try resolve(target, currentDirectory: currentDirectory))
        return options
    }

    /// A URL as given, or an existing file as a `file://` URL.
    static func resolve(_ target: String, currentDirectory: String) throws -> String {
        if let scheme = target.split(separator: ":", maxSplits: 1).first, target.contains("://") || target.hasPrefix("about:") || target.hasPrefix("data:"),
           scheme.allSatisfy({ $0.isLetter || $0.isNumber || "+-.".contains($0) }) {
            return target
        }
        let path = target.hasPrefix("/") ? target : currentDirectory + "/" + target
        let standardized = URL(fileURLWithPath: path).standardizedFileURL
        guard FileManager.default.fileExists(atPath: standardized.path) else {
            throw UsageError("'\(target)' is neither a URL (scheme://…) nor an existing file")
        }
        return standardized.absoluteString
    }
}
