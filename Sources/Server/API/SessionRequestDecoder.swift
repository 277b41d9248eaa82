import Foundation
import PagehostCore

/// Turns the JSON bodies of the API (and of stream commands) into core values, strictly: see `JSONFields`.
enum SessionRequestDecoder {
    static let loadFields: Set<String> = ["url", "html", "baseURL", "data", "mimeType", "encoding"]
    static let optionFields: Set<String> = Set(["popupMode", "label", "userAgentSuffix", "dialogPolicy", "popupPolicy",
                                                "viewport"]).union(toolboxOptionFields)
    static let sessionFields: Set<String> = loadFields.union(optionFields)

    /// `POST /api/sessions`: what to load and the session's options, over `defaults`.
    /// `schemes`: the custom schemes the server serves, which URLs may use besides the built-in ones.
    static func createSession(_ json: JSONValue, defaults: SessionOptions, context: String = "body",
                              schemes: Set<String> = [])
        throws(PagehostError) -> (SessionOptions, LoadRequest)
    {
        let fields = try JSONFields(json, context: context)
        try fields.allowOnly(sessionFields)
        let request = try loadRequest(fields, schemes: schemes)
        let options = try options(from: json, over: defaults, context: context, extraFields: loadFields)
        return (options, request)
    }

    /// Session options (also `sessionDefaults` in the config file).
    static func options(from json: JSONValue, over defaults: SessionOptions, context: String,
                        extraFields: Set<String> = []) throws(PagehostError) -> SessionOptions {
        let fields = try JSONFields(json, context: context)
        try fields.allowOnly(optionFields.union(extraFields))
        var options = defaults
        if let v = try fields.choice("popupMode", PopupMode.self) { options.popupMode = v }
        if let v = try fields.string("label") {
            guard v.utf8.count <= 200 else { throw PagehostError(.badRequest, "field \(fields.name("label")) is longer than 200 bytes") }
            options.label = v
        }
        if let v = try fields.string("userAgentSuffix") {
            guard v.utf8.count <= 200, !v.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
                throw PagehostError(.badRequest, "field \(fields.name("userAgentSuffix")) must be at most 200 bytes without control characters")
            }
            options.userAgentSuffix = v
        }
        if let v = try fields.choice("dialogPolicy", DialogPolicy.self) { options.dialogPolicy = v }
        if let v = try fields.choice("popupPolicy", PopupPolicy.self) { options.popupPolicy = v }
        if let v = fields["viewport"], !v.isNull {
            let viewport = try JSONFields(v, context: fields.name("viewport"))
            try viewport.allowOnly(["width", "height"])
            let sides = Viewport.allowedSides
            guard let width = try viewport.int("width", in: sides) else { throw PagehostError(.badRequest, "field \(viewport.name("width")) is required") }
            guard let height = try viewport.int("height", in: sides) else { throw PagehostError(.badRequest, "field \(viewport.name("height")) is required") }
            options.viewport = Viewport(width: width, height: height)
        }
        try applyToolboxOptions(fields, to: &options)
        return options
    }

    /// `url`; or `html` with an optional `baseURL`; or `data` (base64) with `mimeType`, an optional `encoding`
    /// and `baseURL`: exactly one of `url`, `html` and `data`.
    static func loadRequest(_ fields: JSONFields, schemes: Set<String> = []) throws(PagehostError) -> LoadRequest {
        let url = try fields.string("url")
        let html = try fields.string("html")
        let data = try fields.string("data")
        let baseURL = try fields.string("baseURL")
        let given = [url, html, data].compactMap { $0 }.count
        guard given == 1 else {
            let names = "\(fields.name("url")), \(fields.name("html")) or \(fields.name("data"))"
            throw PagehostError(.badRequest, given == 0 ? "field \(names) is required" : "give one of \(names), not more")
        }
        if data == nil {
            for key in ["mimeType", "encoding"] where fields[key].map({ !$0.isNull }) == true {
                throw PagehostError(.badRequest, "field \(fields.name(key)) goes only with data")
            }
        }
        if let url {
            guard baseURL == nil else { throw PagehostError(.badRequest, "field \(fields.name("baseURL")) goes only with html or data") }
            try checkURL(url, field: fields.name("url"), schemes: schemes)
            return .url(url)
        }
        if let html {
            if let baseURL { try checkURL(baseURL, field: fields.name("baseURL"), schemes: schemes) }
            return .html(html, baseURL: baseURL)
        }
        return try dataRequest(fields, base64: data ?? "", schemes: schemes)
    }

    /// Schemes a page may be sent to from the API. `file:` is not one: the API must not read local files.
    static let allowedSchemes: Set<String> = ["http", "https", "about", "data"]

    static func checkURL(_ text: String, field: String, schemes: Set<String> = []) throws(PagehostError) {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(),
              allowedSchemes.contains(scheme) || schemes.contains(scheme)
        else {
            let custom = schemes.sorted().map { ", \($0)" }.joined()
            throw PagehostError(.badRequest, "field \(field) must be an absolute http, https, about or data\(custom) URL")
        }
        if scheme == "http" || scheme == "https", url.host?.isEmpty ?? true {
            throw PagehostError(.badRequest, "field \(field) has no host")
        }
    }

    /// `POST …/navigate`.
    static func navigate(_ json: JSONValue, context: String = "body", schemes: Set<String> = []) throws(PagehostError) -> LoadRequest {
        let fields = try JSONFields(json, context: context)
        try fields.allowOnly(loadFields)
        return try loadRequest(fields, schemes: schemes)
    }

    /// `POST …/evaluate`: the function body and its named arguments.
    static func evaluate(_ json: JSONValue, context: String = "body") throws(PagehostError) -> (String, [(String, JSONValue)]) {
        let fields = try JSONFields(json, context: context)
        try fields.allowOnly(["script", "arguments"])
        let script = try fields.requiredString("script")
        var arguments: [(String, JSONValue)] = []
        if let value = fields["arguments"], !value.isNull {
            guard let members = value.objectValue else {
                throw PagehostError(.badRequest, "field \(fields.name("arguments")) must be an object")
            }
            arguments = members
        }
        return (script, arguments)
    }

    /// `POST /api/sessions/{sid}/dialogs/{did}`.
    static func dialogAnswer(_ json: JSONValue, context: String = "body") throws(PagehostError) -> DialogAnswer {
        let fields = try JSONFields(json, context: context)
        try fields.allowOnly(["accept", "text"])
        guard let accept = try fields.bool("accept") else {
            throw PagehostError(.badRequest, "field \(fields.name("accept")) is required")
        }
        return DialogAnswer(accept: accept, text: try fields.string("text"))
    }
}
