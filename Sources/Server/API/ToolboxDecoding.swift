import Foundation
import PagehostCore

/// The JSON of the page toolbox (issue 6): the session options it added (navigation rules, process model,
/// crash policy, timeouts, popups, prompt text) and the bodies of the history, find, scroll and click
/// commands. Strict like the rest: see `JSONFields`.
extension SessionRequestDecoder {
    /// Session options beyond the first set, accepted by `POST /api/sessions`, `createSession` and the config
    /// file's `sessionDefaults`.
    static let toolboxOptionFields: Set<String> = ["promptText", "maxPopups", "processModel", "onCrash", "maxCrashReloads",
                                                   "idleTimeout", "maxLifetime", "dialogTimeout", "navigationRules"]

    /// The longest timeout a session may have (a year), in seconds.
    static let longestTimeout: Double = 365 * 24 * 3600
    /// Rules one navigation list may hold.
    static let maxNavigationRules = 1000

    static func applyToolboxOptions(_ fields: JSONFields, to options: inout SessionOptions) throws(PagehostError) {
        if let v = try fields.string("promptText") {
            guard v.utf8.count <= 65536 else { throw PagehostError(.badRequest, "field \(fields.name("promptText")) is longer than 65536 bytes") }
            options.promptText = v
        }
        if let v = try fields.int("maxPopups", in: 0...1000) { options.maxPopups = v }
        if let v = try fields.choice("processModel", ProcessModel.self) { options.processModel = v }
        if let v = try fields.choice("onCrash", CrashPolicy.self) { options.onCrash = v }
        if let v = try fields.int("maxCrashReloads", in: 0...100) { options.maxCrashReloads = v }
        // A timeout given as null means none (overriding a default that has one).
        if fields["idleTimeout"] != nil { options.idleTimeout = try fields.seconds("idleTimeout", upTo: longestTimeout) }
        if fields["maxLifetime"] != nil { options.maxLifetime = try fields.seconds("maxLifetime", upTo: longestTimeout) }
        if fields["dialogTimeout"] != nil { options.dialogTimeout = try fields.seconds("dialogTimeout", upTo: longestTimeout) }
        if let v = fields["navigationRules"], !v.isNull {
            options.navigationRules = try navigationRules(v, context: fields.name("navigationRules"))
        }
    }

    /// `{"rules":[{"scheme","host","pathPrefix","action"}, …], "default":"allow"|"block"}`.
    static func navigationRules(_ json: JSONValue, context: String) throws(PagehostError) -> NavigationRules {
        let fields = try JSONFields(json, context: context)
        try fields.allowOnly(["rules", "default"])
        var result = NavigationRules()
        if let v = try fields.choice("default", NavigationRule.Action.self) { result.defaultAction = v }
        if let value = fields["rules"], !value.isNull {
            guard let items = value.arrayValue else { throw PagehostError(.badRequest, "field \(fields.name("rules")) must be an array of rules") }
            guard items.count <= maxNavigationRules else {
                throw PagehostError(.badRequest, "field \(fields.name("rules")) has more than \(maxNavigationRules) rules")
            }
            for (index, item) in items.enumerated() {
                result.rules.append(try navigationRule(item, context: "\(fields.name("rules"))[\(index)]"))
            }
        }
        return result
    }

    static func navigationRule(_ json: JSONValue, context: String) throws(PagehostError) -> NavigationRule {
        let fields = try JSONFields(json, context: context)
        try fields.allowOnly(["scheme", "host", "pathPrefix", "action"])
        guard let action = try fields.choice("action", NavigationRule.Action.self) else {
            throw PagehostError(.badRequest, "field \(fields.name("action")) is required: allow or block")
        }
        let scheme = try fields.string("scheme")
        if let scheme {
            let scalars = scheme.lowercased().unicodeScalars
            guard let first = scalars.first, ("a"..."z").contains(first),
                  scalars.allSatisfy({ ("a"..."z").contains($0) || ("0"..."9").contains($0) || "+-.".unicodeScalars.contains($0) })
            else {
                throw PagehostError(.badRequest, "field \(fields.name("scheme")) must be a URL scheme name without \"://\" (https, lakes)")
            }
        }
        let host = try fields.string("host")
        if let host {
            let name = host.hasPrefix("*.") ? String(host.dropFirst(2)) : host
            guard !name.isEmpty, name.utf8.count <= 253,
                  name.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "-.:[]_".unicodeScalars.contains($0)) })
            else {
                throw PagehostError(.badRequest, "field \(fields.name("host")) must be a host name (example.test), optionally starting with \"*.\"")
            }
        }
        let pathPrefix = try fields.string("pathPrefix")
        if let pathPrefix {
            guard pathPrefix.hasPrefix("/"), pathPrefix.utf8.count <= 2048 else {
                throw PagehostError(.badRequest, "field \(fields.name("pathPrefix")) must start with \"/\" (at most 2048 bytes)")
            }
        }
        return NavigationRule(scheme: scheme, host: host, pathPrefix: pathPrefix, action: action)
    }

    /// `data` (base64) + `mimeType` + optional `encoding` + optional `baseURL`.
    static func dataRequest(_ fields: JSONFields, base64: String, schemes: Set<String>) throws(PagehostError) -> LoadRequest {
        guard let bytes = Data(base64Encoded: base64, options: .ignoreUnknownCharacters) else {
            throw PagehostError(.badRequest, "field \(fields.name("data")) must be base64")
        }
        guard let mimeType = try fields.string("mimeType") else {
            throw PagehostError(.badRequest, "field \(fields.name("mimeType")) is required with data")
        }
        let token: (Unicode.Scalar) -> Bool = { $0.isASCII && $0.value > 0x20 && $0.value < 0x7F && !"()<>@,;:\\\"/[]?={}".unicodeScalars.contains($0) }
        let parts = mimeType.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ !$0.isEmpty && $0.unicodeScalars.allSatisfy(token) }), mimeType.utf8.count <= 200 else {
            throw PagehostError(.badRequest, "field \(fields.name("mimeType")) must be a MIME type (type/subtype, e.g. text/html)")
        }
        let encoding = try fields.string("encoding")
        if let encoding {
            guard !encoding.isEmpty, encoding.utf8.count <= 64, encoding.unicodeScalars.allSatisfy(token) else {
                throw PagehostError(.badRequest, "field \(fields.name("encoding")) must be a character encoding name (utf-8, iso-8859-1)")
            }
        }
        let baseURL = try fields.string("baseURL")
        if let baseURL { try checkURL(baseURL, field: fields.name("baseURL"), schemes: schemes) }
        return .data([UInt8](bytes), mimeType: mimeType.lowercased(), encoding: encoding, baseURL: baseURL)
    }

    // MARK: Page tools

    /// `POST …/find`: `text` and `caseInsensitive`.
    static func find(_ json: JSONValue, context: String = "body") throws(PagehostError) -> FindCommand {
        let fields = try JSONFields(json, context: context)
        try fields.allowOnly(["text", "caseInsensitive"])
        let text = try fields.requiredString("text")
        guard !text.isEmpty else { throw PagehostError(.badRequest, "field \(fields.name("text")) must not be empty") }
        guard text.utf8.count <= 4096 else { throw PagehostError(.badRequest, "field \(fields.name("text")) is longer than 4096 bytes") }
        return .search(text, caseInsensitive: try fields.bool("caseInsensitive") ?? false)
    }

    /// `POST …/scroll`: `x` and `y`, or `selector`.
    static func scroll(_ json: JSONValue, context: String = "body") throws(PagehostError) -> ScrollTarget {
        let fields = try JSONFields(json, context: context)
        try fields.allowOnly(["x", "y", "selector"])
        if let selector = try fields.string("selector") {
            guard fields["x"] == nil, fields["y"] == nil else {
                throw PagehostError(.badRequest, "give \(fields.name("selector")) or \(fields.name("x")) and \(fields.name("y")), not both")
            }
            try checkSelector(selector, field: fields.name("selector"))
            return .element(selector: selector)
        }
        let limit = 10_000_000.0
        guard let x = try fields.number("x", in: 0...limit), let y = try fields.number("y", in: 0...limit) else {
            throw PagehostError(.badRequest, "field \(fields.name("x")) and \(fields.name("y")), or \(fields.name("selector")), is required")
        }
        return .position(x: x, y: y)
    }

    /// `POST …/click`: `selector`.
    static func click(_ json: JSONValue, context: String = "body") throws(PagehostError) -> String {
        let fields = try JSONFields(json, context: context)
        try fields.allowOnly(["selector"])
        let selector = try fields.requiredString("selector")
        try checkSelector(selector, field: fields.name("selector"))
        return selector
    }

    /// Bodies of commands that take none (history, find next/previous/clear): only `{}` or empty.
    static func noFields(_ json: JSONValue, context: String = "body") throws(PagehostError) {
        let fields = try JSONFields(json, context: context)
        try fields.allowOnly([])
    }

    static func checkSelector(_ selector: String, field: String) throws(PagehostError) {
        guard !selector.isEmpty else { throw PagehostError(.badRequest, "field \(field) must not be empty") }
        guard selector.utf8.count <= 4096 else { throw PagehostError(.badRequest, "field \(field) is longer than 4096 bytes") }
    }
}

extension JSONFields {
    /// A number member, nil when absent or null.
    func number(_ key: String, in range: ClosedRange<Double>) throws(PagehostError) -> Double? {
        guard let value = self[key], !value.isNull else { return nil }
        guard let n = value.doubleValue, n.isFinite else { throw PagehostError(.badRequest, "field \(name(key)) must be a number") }
        guard range.contains(n) else {
            throw PagehostError(.badRequest, "field \(name(key)) must be between \(Self.format(range.lowerBound)) and \(Self.format(range.upperBound))")
        }
        return n
    }

    /// A duration given in seconds (a number > 0, fractions allowed), nil when absent or null.
    func seconds(_ key: String, upTo longest: Double) throws(PagehostError) -> Duration? {
        guard let value = self[key], !value.isNull else { return nil }
        guard let n = value.doubleValue, n.isFinite else { throw PagehostError(.badRequest, "field \(name(key)) must be a number of seconds") }
        guard n > 0, n <= longest else {
            throw PagehostError(.badRequest, "field \(name(key)) must be more than 0 and at most \(Self.format(longest)) seconds")
        }
        return .milliseconds(Int64((n * 1000).rounded(.up)))
    }

    static func format(_ n: Double) -> String {
        n.rounded() == n && abs(n) < 1e15 ? String(Int64(n)) : String(n)
    }
}
