import PagehostCore

extension ServerConfiguration {
    /// `tokens: {"operator": "…", "viewer": "…"}`. `operator` is the same token as `token` (giving both,
    /// different, is an error); the viewer's must differ from the operator's.
    mutating func applyTokens(_ json: JSONValue) throws(PagehostError) {
        let object = try JSONFields(json, context: "tokens")
        try object.allowOnly(["operator", "viewer"])
        if let v = try object.string("operator"), !v.isEmpty {
            if let token, token != v {
                throw PagehostError(.badRequest, "field tokens.operator differs from field token: give the operator's token once")
            }
            try Self.checkToken(v, name: "tokens.operator")
            token = v
        }
        if let v = try object.string("viewer") {
            if !v.isEmpty { try Self.checkToken(v, name: "tokens.viewer") }
            viewerToken = v.isEmpty ? nil : v
        }
        try checkTokensDiffer()
    }

    /// A token travels in headers, URLs and cookies: printable ASCII without spaces, `;` or `,`.
    static func checkToken(_ token: String, name: String) throws(PagehostError) {
        guard !token.isEmpty, token.allSatisfy({ $0.isASCII && !$0.isWhitespace && $0 != ";" && $0 != "," && $0.asciiValue! >= 0x21 }) else {
            throw PagehostError(.badRequest, "\(name) must be printable ASCII without spaces, ';' or ','")
        }
    }

    /// The viewer's token may not be the operator's (it would be the operator's).
    func checkTokensDiffer() throws(PagehostError) {
        if let viewerToken, viewerToken == token {
            throw PagehostError(.badRequest, "the viewer token equals the operator token: give the viewer its own")
        }
    }
}
