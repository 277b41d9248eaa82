import Foundation
import Server

/// `pagehost config check FILE`: reads a config file exactly as `pagehost serve --config FILE` would (every
/// key, type and range; custom schemes' names and folders) without starting anything. Prints `ok` and exits 0,
/// or prints the message naming the bad key and exits 2.
enum ConfigCommand {
    static let usage = """
        usage: pagehost config check FILE

          checks FILE as `pagehost serve --config FILE` would read it, without starting the server:
          prints "ok" (exit 0), or the error naming the key (exit 2)

        """

    static func run(_ arguments: [String]) -> Int32 {
        if arguments.first == "--help" || arguments.first == "-h" || arguments.first == "help" {
            print(usage, terminator: "")
            return 0
        }
        guard arguments.count == 2, arguments[0] == "check" else {
            FileHandle.standardError.write(Data("pagehost config: expected `check FILE`\n\n\(usage)".utf8))
            return 2
        }
        do {
            _ = try ServerConfiguration.load(file: arguments[1])
        } catch {
            FileHandle.standardError.write(Data("pagehost config check: \(error.message)\n".utf8))
            return 2
        }
        print("ok")
        return 0
    }
}
