/// An error a command can end in, with the wire contract's code. The edge (HTTP, the stream, the CLI) maps
/// the code to a status; the message is for a person and names what was wrong.
public struct PagehostError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Code: String, Sendable {
        case badRequest = "bad_request"
        case notFound = "not_found"
        case conflict
        case tooLarge = "too_large"
        case limit = "limit_exceeded"
        /// A page's script threw, or its result could not be returned.
        case scriptError = "script_error"
        /// The engine could not do it (a crashed page, a failed snapshot).
        case engine = "engine_error"
        case unavailable
    }

    public let code: Code
    public let message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code.rawValue): \(message)" }

    public static func noSession(_ id: SessionID) -> PagehostError { .init(.notFound, "no session \(id)") }
    public static func noPage(_ id: PageID) -> PagehostError { .init(.notFound, "no page \(id)") }
    public static func noDialog(_ id: DialogID) -> PagehostError { .init(.notFound, "no pending dialog \(id)") }
}
