import Foundation
import PagehostCore

/// The config file's keys for the page toolbox (issue 6): `customSchemes`, `navigationRules`, `engine`, and the
/// host limits under `limits`. Checked like the rest: unknown keys and wrong types name the key.
extension ServerConfiguration {
    /// The custom schemes' names, which API URLs may use besides http, https, about and data.
    public var customSchemeNames: Set<String> { Set(customSchemes.map(\.name)) }

    mutating func applyToolbox(_ object: JSONFields, relativeTo base: String?) throws(PagehostError) {
        if let value = object["customSchemes"], !value.isNull {
            customSchemes = try Self.customSchemes(value, context: object.name("customSchemes"), relativeTo: base)
        }
        if let value = object["navigationRules"], !value.isNull {
            // The same default as `sessionDefaults.navigationRules`; giving both would leave one unused.
            if let defaults = object["sessionDefaults"], defaults["navigationRules"] != nil {
                throw PagehostError(.badRequest, "give \(object.name("navigationRules")) or sessionDefaults.navigationRules, not both")
            }
            sessionDefaults.navigationRules = try SessionRequestDecoder.navigationRules(value, context: object.name("navigationRules"))
        }
        if let value = object["engine"], !value.isNull {
            let engine = try JSONFields(value, context: object.name("engine"))
            try engine.allowOnly(["pagesPerProcess", "navigationTimeout", "javascriptCollectionThreshold"])
            if let v = try engine.int("pagesPerProcess", in: 1...1000) { pagesPerProcess = v }
            if let v = try engine.seconds("navigationTimeout", upTo: 3600) { navigationTimeout = v }
            if let v = try engine.int("javascriptCollectionThreshold", in: 1...4096) { javascriptCollectionThreshold = v }
        }
    }

    /// `{"lakes": "folder", …}`: each checked by `CustomScheme` (a valid name, not one the engine owns, an
    /// existing folder). Relative folders are taken relative to `base`.
    static func customSchemes(_ json: JSONValue, context: String, relativeTo base: String?) throws(PagehostError) -> [CustomScheme] {
        let fields = try JSONFields(json, context: context)
        var schemes: [CustomScheme] = []
        var seen = Set<String>()
        for (name, _) in fields.members {
            guard let folder = try fields.string(name) else {
                throw PagehostError(.badRequest, "field \(fields.name(name)) must be a folder (a string)")
            }
            guard !folder.isEmpty else { throw PagehostError(.badRequest, "field \(fields.name(name)) must not be empty") }
            let resolved: String
            if folder.hasPrefix("/") {
                resolved = folder
            } else {
                let root = URL(fileURLWithPath: base ?? FileManager.default.currentDirectoryPath, isDirectory: true)
                resolved = root.appendingPathComponent(folder).standardizedFileURL.path
            }
            do throws(PagehostError) {
                let scheme = try CustomScheme(name: name, folder: resolved) { path in
                    var isDirectory: ObjCBool = false
                    return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
                }
                guard seen.insert(scheme.name).inserted else {
                    throw PagehostError(.badRequest, "custom scheme \"\(name)\" is given twice")
                }
                schemes.append(scheme)
            } catch {
                throw PagehostError(.badRequest, "field \(fields.name(name)): \(error.message)")
            }
        }
        return schemes
    }
}

extension ServerConfiguration.Limits {
    /// `limits` keys that set the host's limits beyond sessions and the event log.
    static let hostLimitKeys: Set<String> = ["maxTextLength", "refusalReportInterval", "dialogLimit", "dialogWindow",
                                             "closedSessionRetention", "closedSessionLimit", "closedSessionEvents",
                                             "closeGracePeriod"]

    mutating func applyHostLimits(_ object: JSONFields) throws(PagehostError) {
        let positive = 1...Int(Int32.max)
        if let v = try object.int("maxTextLength", in: 64...(1 << 24)) { maxTextLength = v }
        if let v = try object.seconds("refusalReportInterval", upTo: 3600) { refusalReportInterval = v }
        if let v = try object.int("dialogLimit", in: positive) { dialogLimit = v }
        if let v = try object.seconds("dialogWindow", upTo: 86400) { dialogWindow = v }
        if let v = try object.seconds("closedSessionRetention", upTo: 365 * 86400) { closedSessionRetention = v }
        if let v = try object.int("closedSessionLimit", in: 0...1_000_000) { closedSessionLimit = v }
        if let v = try object.int("closedSessionEvents", in: 0...1_000_000) { closedSessionEvents = v }
        if let v = try object.seconds("closeGracePeriod", upTo: 3600) { closeGracePeriod = v }
    }
}
