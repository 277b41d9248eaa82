/// Checks the server's token on a request: `Authorization: Bearer T`, `?token=T`, or the `pagehost_token`
/// cookie that the dashboard URL sets. Comparison takes the same time wherever the first difference is.
public struct TokenAuthenticator: Sendable {
    public static let cookieName = "pagehost_token"
    private let token: [UInt8]

    public init(token: String) {
        self.token = Array(token.utf8)
    }

    public enum Source: Sendable, Equatable {
        case header, query, cookie
    }

    /// Where a valid token came from, or nil when the request carries no valid token.
    public func authenticate(_ request: HTTPRequest) -> Source? {
        if let header = request.headers["authorization"] {
            let prefix = "bearer "
            if header.count > prefix.count, header.lowercased().hasPrefix(prefix),
               matches(String(header.dropFirst(prefix.count)).trimmingSpaces) {
                return .header
            }
        }
        if let query = request.query["token"], matches(query) { return .query }
        if let cookieHeader = request.headers["cookie"] {
            for cookie in cookieHeader.split(separator: ";") {
                let parts = cookie.split(separator: "=", maxSplits: 1)
                if parts.count == 2, parts[0].trimmingSpaces == Self.cookieName, matches(parts[1].trimmingSpaces) {
                    return .cookie
                }
            }
        }
        return nil
    }

    /// Constant-time in the candidate's content: every byte of the longer of the two is looked at.
    public func matches(_ candidate: String) -> Bool {
        let given = Array(candidate.utf8)
        var difference = UInt8(truncatingIfNeeded: given.count ^ token.count)
        let length = max(given.count, token.count)
        for i in 0..<length {
            let a = i < given.count ? given[i] : 0
            let b = i < token.count ? token[i] : 0
            difference |= a ^ b
        }
        return difference == 0 && given.count == token.count
    }

    /// A random token: 32 hex digits from the system's secure generator.
    public static func generate() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<16).map { _ in
            let byte = UInt8.random(in: 0...255, using: &generator)
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }
}

extension StringProtocol {
    var trimmingSpaces: String {
        String(drop(while: { $0 == " " || $0 == "\t" }).reversed().drop(while: { $0 == " " || $0 == "\t" }).reversed())
    }
}
