import Foundation
import PagehostCore

extension ServerConfiguration {
    /// Reads a configuration file over the defaults. Unknown keys and wrong types are errors that name
    /// the key, so a typo never silently falls back to a default. Relative folders are taken relative to
    /// the file's own folder.
    public static func load(file path: String) throws(PagehostError) -> ServerConfiguration {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw PagehostError(.badRequest, "cannot read config file \(path)")
        }
        let json: JSONValue
        do {
            json = try JSONParser.parse([UInt8](data))
        } catch {
            throw PagehostError(.badRequest, "config file \(path): \(error)")
        }
        var config = ServerConfiguration()
        let base = URL(fileURLWithPath: path).deletingLastPathComponent()
        do {
            try config.apply(json, relativeTo: base.path)
        } catch {
            throw PagehostError(.badRequest, "config file \(path): \(error.message)")
        }
        config.adminUIDirectory = resolve(config.adminUIDirectory, against: base)
        config.demoDirectory = resolve(config.demoDirectory, against: base)
        config.openAPIFile = resolve(config.openAPIFile, against: base)
        return config
    }

    private static func resolve(_ path: String, against base: URL) -> String {
        path.hasPrefix("/") ? path : base.appendingPathComponent(path).standardizedFileURL.path
    }

    /// Applies the members of a configuration object. Custom scheme folders are taken relative to `base`
    /// (the current directory when nil).
    public mutating func apply(_ json: JSONValue, relativeTo base: String? = nil) throws(PagehostError) {
        let object = try JSONFields(json, context: "config")
        try object.allowOnly(["host", "port", "token", "tokens", "demo", "allowedOrigins", "adminUI",
                              "demoFolder", "openAPIFile", "limits", "sessionDefaults",
                              "customSchemes", "navigationRules", "engine"])
        if let v = try object.string("host") {
            do { host = try ListenHost.validated(v) } catch { throw PagehostError(.badRequest, "config field host: \(error.message)") }
        }
        if let v = try object.int("port", in: 0...65535) { port = v }
        if let v = try object.string("token") { token = v.isEmpty ? nil : v }
        if let v = object["tokens"] { try applyTokens(v) }
        if let v = try object.bool("demo") { demo = v }
        if let v = try object.stringArray("allowedOrigins") { allowedOrigins = v }
        if let v = try object.string("adminUI") { adminUIDirectory = v }
        if let v = try object.string("demoFolder") { demoDirectory = v }
        if let v = try object.string("openAPIFile") { openAPIFile = v }
        if let v = object["limits"] { try limits.apply(v) }
        if let v = object["sessionDefaults"] {
            sessionDefaults = try SessionRequestDecoder.options(from: v, over: sessionDefaults, context: "sessionDefaults")
        }
        try applyToolbox(object, relativeTo: base)
    }
}

extension ServerConfiguration.Limits {
    mutating func apply(_ json: JSONValue) throws(PagehostError) {
        let object = try JSONFields(json, context: "limits")
        try object.allowOnly(Set<String>(["sessions", "pagesPerSession", "requestBodyBytes", "streamClients",
                              "streamClientBufferBytes", "streamCoalesceAfterBytes", "streamSocketSendBufferBytes",
                              "eventLogCapacity"]).union(Self.hostLimitKeys))
        let positive = 1...Int(Int32.max)
        if let v = try object.int("sessions", in: positive) { sessions = v }
        if let v = try object.int("pagesPerSession", in: positive) { pagesPerSession = v }
        if let v = try object.int("requestBodyBytes", in: 1024...(1 << 30)) { requestBodyBytes = v }
        if let v = try object.int("streamClients", in: positive) { streamClients = v }
        if let v = try object.int("streamClientBufferBytes", in: 4096...(1 << 30)) { streamClientBufferBytes = v }
        if let v = try object.int("streamCoalesceAfterBytes", in: 0...(1 << 30)) { streamCoalesceAfterBytes = v }
        if let v = try object.int("streamSocketSendBufferBytes", in: 0...(1 << 30)) { streamSocketSendBufferBytes = v }
        if let v = try object.int("eventLogCapacity", in: positive) { eventLogCapacity = v }
        try applyHostLimits(object)
    }
}
