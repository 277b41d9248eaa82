import Foundation

/// `pagehost serve`: the server (HTTP API, stream, dashboard). Built in the server issue.
enum ServeCommand {
    static func run(_ arguments: [String]) -> Int32 {
        FileHandle.standardError.write(Data("pagehost: serve is not built yet; use `pagehost open URL`\n".utf8))
        return 1
    }
}
