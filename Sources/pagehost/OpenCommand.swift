import Foundation

/// `pagehost open URL|FILE`: one session, no server, every event printed as a JSON line.
enum OpenCommand {
    static func run(_ arguments: [String]) -> Int32 {
        FileHandle.standardError.write(Data("pagehost: open is not built yet\n".utf8))
        return 1
    }
}
