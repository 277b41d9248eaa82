import PagehostCore

extension PagehostError {
    /// The HTTP status of each error code. A script that throws is the caller's input failing (422); an engine
    /// that cannot do what it was asked is a server-side failure (500).
    public var httpStatus: Int {
        switch code {
        case .badRequest: return 400
        case .notFound: return 404
        case .conflict: return 409
        case .tooLarge: return 413
        case .limit: return 429
        case .scriptError: return 422
        case .engine: return 500
        case .unavailable: return 503
        }
    }

    /// `{"error":{"code":…,"message":…}}`.
    public var json: JSONValue {
        ["error": ["code": .string(code.rawValue), "message": .string(message)]]
    }

    /// The error object alone, as a stream `error` message carries it.
    var errorObject: JSONValue {
        ["code": .string(code.rawValue), "message": .string(message)]
    }
}
