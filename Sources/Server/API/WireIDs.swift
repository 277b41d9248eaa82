import PagehostCore

/// Ids as they appear in paths and commands. A malformed id (`x`, `s1x`) is a bad request; a well-formed id
/// that names nothing is not found.
enum WireIDs {
    static func session(_ text: String, field: String) throws(PagehostError) -> SessionID {
        try check(text, prefix: "s", kind: "session", field: field)
        return SessionID(text)
    }

    static func page(_ text: String, field: String) throws(PagehostError) -> PageID {
        try check(text, prefix: "p", kind: "page", field: field)
        return PageID(text)
    }

    static func dialog(_ text: String, field: String) throws(PagehostError) -> DialogID {
        try check(text, prefix: "d", kind: "dialog", field: field)
        return DialogID(text)
    }

    private static func check(_ text: String, prefix: Character, kind: String, field: String) throws(PagehostError) {
        let digits = text.dropFirst()
        guard text.first == prefix, !digits.isEmpty, digits.count <= 18, digits.allSatisfy(\.isASCIIDigit) else {
            throw PagehostError(.badRequest, "\(field) \"\(text.prefix(40))\" is not a \(kind) id (\(prefix)1, \(prefix)2, …)")
        }
    }
}

extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
