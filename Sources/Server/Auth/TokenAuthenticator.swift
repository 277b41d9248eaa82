/// Checks the server's token on a request: `Authorization: Bearer T`, `?token=T`, or the `pagehost_token`
/// cookie that the dashboard URL sets. Comparison takes the same time wherever the first difference is.
/// With a viewer token as well, every candidate is compared with both tokens (the time does not say which
/// matched, or how far), and the match says the role.
public struct TokenAuthenticator: Sendable {
    public static let cookieName = "pagehost_token"
    private let token: [UInt8]
    private let viewerToken: [UInt8]?

    public init(token: String, viewerToken: String? = nil) {
        self.token = Array(token.utf8)
        self.viewerToken = viewerToken.map { Array($0.utf8) }
    }

    /// A valid token's role and where it came from.
    public struct Credential: Sendable, Equatable {
        public let role: Role
        public let source: Source
    }

    /// The role of the request's token and where it came from, or nil when it carries no valid token. The
    /// first valid token found (header, then query, then cookie) decides.
    public func credential(_ request: HTTPRequest) -> Credential? {
        var found: Credential?
        forEachCandidate(request) { candidate, source in
            guard found == nil, let role = self.role(of: candidate) else { return }
            found = Credential(role: role, source: source)
        }
        return found
    }

    /// The role a token has, or nil. Constant-time: compared with both tokens whatever the outcome.
    public func role(of candidate: String) -> Role? {
        let isOperator = Self.equal(Array(candidate.utf8), token)
        let isViewer = viewerToken.map { Self.equal(Array(candidate.utf8), $0) } ?? false
        return isOperator ? .operator : isViewer ? .viewer : nil
    }

    private func forEachCandidate(_ request: HTTPRequest, _ body: (String, Source) -> Void) {
        if let header = request.headers["authorization"] {
            let prefix = "bearer "
            if header.count > prefix.count, header.lowercased().hasPrefix(prefix) {
                body(String(header.dropFirst(prefix.count)).trimmingSpaces, .header)
            }
        }
        if let query = request.query["token"] { body(query, .query) }
        if let cookieHeader = request.headers["cookie"] {
            for cookie in cookieHeader.split(separator: ";") {
                let parts = cookie.split(separator: "=", maxSplits: 1)
                if parts.count == 2, parts[0].trimmingSpaces == Self.cookieName { body(parts[1].trimmingSpaces, .cookie) }
            }
        }
    }

    public enum Source: Sendable, Equatable {
        case header, query, cookie
    }

    /// Where a valid token (of either role) came from, or nil when the request carries no valid token.
    public func authenticate(_ request: HTTPRequest) -> Source? {
        credential(request)?.source
    }

    /// Whether `candidate` is the operator's token.
    public func matches(_ candidate: String) -> Bool {
        Self.equal(Array(candidate.utf8), token)
    }

    /// Constant-time in the candidate's content: every byte of the longer of the two is looked at.
    static func equal(_ given: [UInt8], _ token: [UInt8]) -> Bool {
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
