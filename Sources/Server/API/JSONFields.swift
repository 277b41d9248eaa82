import PagehostCore

/// A JSON object read strictly: unknown members, wrong types and out-of-range numbers are `bad_request`
/// errors whose message names the member (`context.member`), so a caller can fix its request.
struct JSONFields {
    let members: [(String, JSONValue)]
    /// The object's name in messages: `body`, `config`, `body.viewport`, ….
    let context: String

    init(_ json: JSONValue, context: String) throws(PagehostError) {
        guard case .object(let members) = json else {
            throw PagehostError(.badRequest, "\(context) must be a JSON object")
        }
        self.members = members
        self.context = context
    }

    func name(_ key: String) -> String { "\(context).\(key)" }

    subscript(key: String) -> JSONValue? {
        members.last(where: { $0.0 == key })?.1
    }

    /// Refuses members not in `allowed`, and members given twice.
    func allowOnly(_ allowed: Set<String>) throws(PagehostError) {
        var seen = Set<String>()
        for (key, _) in members {
            guard allowed.contains(key) else {
                throw PagehostError(.badRequest, "unknown field \(name(key)) (allowed: \(allowed.sorted().joined(separator: ", ")))")
            }
            guard seen.insert(key).inserted else { throw PagehostError(.badRequest, "field \(name(key)) is given twice") }
        }
    }

    /// A string member, nil when absent or null.
    func string(_ key: String) throws(PagehostError) -> String? {
        guard let value = self[key], !value.isNull else { return nil }
        guard let s = value.stringValue else { throw PagehostError(.badRequest, "field \(name(key)) must be a string") }
        return s
    }

    func requiredString(_ key: String) throws(PagehostError) -> String {
        guard let s = try string(key) else { throw PagehostError(.badRequest, "field \(name(key)) is required") }
        return s
    }

    func bool(_ key: String) throws(PagehostError) -> Bool? {
        guard let value = self[key], !value.isNull else { return nil }
        guard let b = value.boolValue else { throw PagehostError(.badRequest, "field \(name(key)) must be true or false") }
        return b
    }

    func int(_ key: String, in range: ClosedRange<Int>) throws(PagehostError) -> Int? {
        guard let value = self[key], !value.isNull else { return nil }
        guard let n = value.intValue else { throw PagehostError(.badRequest, "field \(name(key)) must be an integer") }
        guard range.contains(n) else {
            throw PagehostError(.badRequest, "field \(name(key)) must be between \(range.lowerBound) and \(range.upperBound)")
        }
        return n
    }

    func stringArray(_ key: String) throws(PagehostError) -> [String]? {
        guard let value = self[key], !value.isNull else { return nil }
        guard let items = value.arrayValue else { throw PagehostError(.badRequest, "field \(name(key)) must be an array of strings") }
        var strings: [String] = []
        for item in items {
            guard let s = item.stringValue else { throw PagehostError(.badRequest, "field \(name(key)) must be an array of strings") }
            strings.append(s)
        }
        return strings
    }

    /// A member that must be one of an enum's raw values.
    func choice<T: RawRepresentable & CaseIterable>(_ key: String, _ type: T.Type) throws(PagehostError) -> T? where T.RawValue == String {
        guard let s = try string(key) else { return nil }
        guard let value = T(rawValue: s) else {
            let allowed = T.allCases.map(\.rawValue).joined(separator: ", ")
            throw PagehostError(.badRequest, "field \(name(key)) must be one of: \(allowed)")
        }
        return value
    }
}
