import Foundation

/// The status line and headers of an HTTP/1.1 response, parsed from the bytes before the blank line.
/// Header names are lower-cased; a repeated header keeps its last value.
public struct HTTPResponseHead: Sendable, Equatable {
    public var status: Int
    public var reason: String
    public var headers: [String: String]

    public init(status: Int, reason: String, headers: [String: String]) {
        self.status = status
        self.reason = reason
        self.headers = headers
    }

    /// Parses `HTTP/1.1 200 OK\r\nName: value\r\n…\r\n\r\n`.
    public static func parse(_ bytes: [UInt8]) throws(ClientError) -> HTTPResponseHead {
        let text = String(decoding: bytes, as: UTF8.self)
        var lines = text.split(separator: "\r\n", omittingEmptySubsequences: true)
        guard !lines.isEmpty else { throw .protocolViolation("empty HTTP response head") }
        let statusLine = lines.removeFirst()
        let parts = statusLine.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), let status = Int(parts[1]), (100...599).contains(status) else {
            throw .protocolViolation("not an HTTP/1.x status line: \(statusLine.prefix(80))")
        }
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { throw .protocolViolation("bad header line: \(line.prefix(80))") }
            let name = line[..<colon].lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            headers[name] = value
        }
        return HTTPResponseHead(status: status, reason: parts.count > 2 ? String(parts[2]) : "", headers: headers)
    }

    /// Whether `Transfer-Encoding` ends in `chunked`.
    public var isChunked: Bool {
        headers["transfer-encoding"]?.lowercased().split(separator: ",").last?.trimmingCharacters(in: .whitespaces) == "chunked"
    }

    public var contentLength: Int? { headers["content-length"].flatMap { Int($0) } }
}
