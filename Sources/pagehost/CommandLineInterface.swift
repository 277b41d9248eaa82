import Foundation

/// Dispatches `pagehost COMMAND …` to its command. Exit codes: 0 done, 1 failed, 2 bad arguments.
enum CommandLineInterface {
    static let usage = """
        usage: pagehost [COMMAND] [OPTIONS]

        commands:
          serve            run the server: HTTP API, live stream and dashboard (the default)
          open URL|FILE    run one session without a server and print its events as JSON lines
          load             open many sessions through the API, watch them on the stream, report (load testing)
          config check FILE  check a config file without starting: "ok", or the message naming the bad key
          help             show this help; `pagehost COMMAND --help` shows a command's options

        """

    static func run(_ arguments: [String]) -> Int32 {
        guard let command = arguments.first, !command.hasPrefix("-") || command == "--help" || command == "-h" else {
            return ServeCommand.run(arguments)
        }
        let rest = Array(arguments.dropFirst())
        switch command {
        case "help", "--help", "-h":
            print(usage, terminator: "")
            return 0
        case "open":
            return OpenCommand.run(rest)
        case "serve":
            return ServeCommand.run(rest)
        case "load":
            return LoadCommand.run(rest)
        case "config":
            return ConfigCommand.run(rest)
        default:
            FileHandle.standardError.write(Data("pagehost: unknown command '\(command)'\n\n\(usage)".utf8))
            return 2
        }
    }
}

/// A bad command line: the message is printed with the command's usage, exit code 2.
struct UsageError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}
