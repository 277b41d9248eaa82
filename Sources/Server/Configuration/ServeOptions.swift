import Foundation
import PagehostCore

/// `pagehost serve`'s command line and environment, resolved into a configuration: built-in defaults, then
/// the config file, then `PAGEHOST_*` variables, then flags.
public enum ServeOptions {
    public static let usage = """
        usage: pagehost serve [--config FILE] [--host ADDRESS] [--port N] [--token TOKEN] [--viewer-token TOKEN] [--no-demo]

          --config FILE    read settings and limits from FILE (default: config/pagehost.json if present)
          --host ADDRESS   address to listen on (default 127.0.0.1)
          --port N         port to listen on; 0 picks a free one (default 8080)
          --token TOKEN    the operator's API token (default: a random one, printed in the dashboard URL)
          --viewer-token TOKEN
                           a read-only token: GET requests and the stream, no commands (default: none)
          --no-demo        do not open the demo session at start

        environment: PAGEHOST_CONFIG, PAGEHOST_HOST, PAGEHOST_PORT, PAGEHOST_TOKEN, PAGEHOST_VIEWER_TOKEN

        """

    /// A command line that cannot run: the message, shown with the usage.
    public struct Failure: Error, CustomStringConvertible {
        public let message: String
        /// Whether `--help` was asked for (not an error).
        public let isHelp: Bool
        public var description: String { message }
    }

    public static func configuration(arguments: [String], environment: [String: String],
                                     defaultConfigFile: String = "config/pagehost.json") throws(Failure) -> ServerConfiguration {
        var flags: [String: String] = [:]
        var noDemo = false
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            switch argument {
            case "--help", "-h":
                throw Failure(message: "", isHelp: true)
            case "--no-demo":
                noDemo = true
            case "--config", "--host", "--port", "--token", "--viewer-token":
                guard index < arguments.count else { throw Failure(message: "\(argument) needs a value", isHelp: false) }
                flags[argument] = arguments[index]
                index += 1
            default:
                if let eq = argument.firstIndex(of: "="), ["--config", "--host", "--port", "--token", "--viewer-token"].contains(String(argument[..<eq])) {
                    flags[String(argument[..<eq])] = String(argument[argument.index(after: eq)...])
                } else {
                    throw Failure(message: "unknown option \(argument)", isHelp: false)
                }
            }
        }

        var configuration = ServerConfiguration()
        let file = flags["--config"] ?? environment["PAGEHOST_CONFIG"]
            ?? (FileManager.default.fileExists(atPath: defaultConfigFile) ? defaultConfigFile : nil)
        if let file {
            do {
                configuration = try ServerConfiguration.load(file: file)
            } catch {
                throw Failure(message: error.message, isHelp: false)
            }
        }
        if let host = flags["--host"] ?? environment["PAGEHOST_HOST"] {
            guard !host.isEmpty else { throw Failure(message: "the host must not be empty", isHelp: false) }
            do {
                configuration.host = try ListenHost.validated(host)
            } catch {
                throw Failure(message: error.message, isHelp: false)
            }
        }
        if let port = flags["--port"] ?? environment["PAGEHOST_PORT"] {
            guard let value = Int(port), (0...65535).contains(value) else {
                throw Failure(message: "the port must be a number from 0 to 65535, not \(port)", isHelp: false)
            }
            configuration.port = value
        }
        if let token = flags["--token"] ?? environment["PAGEHOST_TOKEN"] {
            guard !token.isEmpty, token.allSatisfy({ $0.isASCII && !$0.isWhitespace && $0 != ";" && $0 != "," }) else {
                throw Failure(message: "the token must be printable ASCII without spaces, ';' or ','", isHelp: false)
            }
            configuration.token = token
        }
        if let viewer = flags["--viewer-token"] ?? environment["PAGEHOST_VIEWER_TOKEN"] {
            do throws(PagehostError) {
                try ServerConfiguration.checkToken(viewer, name: "the viewer token")
                configuration.viewerToken = viewer
                try configuration.checkTokensDiffer()
            } catch {
                throw Failure(message: error.message, isHelp: false)
            }
        }
        if noDemo { configuration.demo = false }
        return configuration
    }
}
