import Foundation
import PagehostCore

/// Turns the JSON bodies of the API (and of stream commands) into core values, strictly: see `JSONFields`.
enum SessionRequestDecoder {
    static let sessionFields: Set<String> = ["url", "html", "baseURL", "popupMode", "label", "userAgentSuffix",
                                             "dialogPolicy", "popupPolicy", "viewport"]
    static let optionFields: Set<String> = ["popupMode", "label", "userAgentSuffix", "dialogPolicy", "popupPolicy",
                                            "viewport"]

    /// `POST /api/sessions`: what to load and the session's options, over `defaults`.
    static func createSession(_ json: JSONValue, defaults: SessionOptions, context: String = "body")
        throws(PagehostError) -> (SessionOptions, LoadRequest)
    {
        let fields = try JSONFields(json, context: context)
        try fields.allowOnly(sessionFields)
        let request = try loadRequest(fields)
        let options = try options(from: json, over: defaults, context: context, extraFields: ["url", "html", "baseURL"])
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
        return options
    }

    /// `url`, or `html` with an optional `baseURL`: exactly one of `url` and `html`.
    static func loadRequest(_ fields: JSONFields) throws(PagehostError) -> LoadRequest {
        let url = try fields.string("url")
        let html = try fields.string("html")
        let baseURL = try fields.string("baseURL")
        switch (url, html) {
        case (let url?, nil):
            guard baseURL == nil else { throw PagehostError(.badRequest, "field \(fields.name("baseURL")) goes only with html") }
            try checkURL(url, field: fields.name("url"))
            return .url(url)
        case (nil, let html?):
            if let baseURL { try checkURL(baseURL, field: fields.name("baseURL")) }
            return .html(html, baseURL: baseURL)
        case (nil, nil):
            throw PagehostError(.badRequest, "field \(fields.name("url")) or \(fields.name("html")) is required")
        case (_?, _?):
            throw PagehostError(.badRequest, "give \(fields.name("url")) or \(fields.name("html")), not both")
        }
    }

    /// Schemes a page may be sent to from the API. `file:` is not one: the API must not read local files.
    static let allowedSchemes: Set<String> = ["http", "https", "about", "data"]

    static func checkURL(_ text: String, field: String) throws(PagehostError) {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), allowedSchemes.contains(scheme) else {
            throw PagehostError(.badRequest, "field \(field) must be an absolute http, https, about or data URL")
        }
        if scheme == "http" || scheme == "https", url.host?.isEmpty ?? true {
            throw PagehostError(.badRequest, "field \(field) has no host")
        }
    }

    /// `POST …/navigate`.
    static func navigate(_ json: JSONValue, context: String = "body") throws(PagehostError) -> LoadRequest {
        let fields = try JSONFields(json, context: context)
        try fields.allowOnly(["url", "html", "baseURL"])
        return try loadRequest(fields)
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
