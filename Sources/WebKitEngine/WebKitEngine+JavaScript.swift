import CWebKitGTK
import PagehostCore

extension WebKitEngine {
    /// Runs `script` as the body of an async function whose parameters are the argument names
    /// (`webkit_web_view_call_async_javascript_function`), awaiting a returned promise.
    ///
    /// Arguments cross as JSON text (one string parameter each) and are parsed back at the top of the body,
    /// so any JSON value arrives intact; the result comes back through `jsc_value_to_json`.
    public func evaluate(_ script: String, arguments: [(String, JSONValue)], in id: PageID) async throws(PagehostError) -> JSONValue {
        try await evaluate(script, arguments: arguments, in: id, world: nil)
    }

    /// How long an evaluation may run before it is abandoned.
    static let evaluateDeadline: Duration = .seconds(30)
    /// How long a call into a page may take before the engine asks WebKit whether its process still answers.
    static let slowCallProbe: Duration = .seconds(2)

    /// `world` nil is the page's own world; Pagehost's own checks run in `PageObserver.world`, which page
    /// scripts can neither see nor shadow.
    func evaluate(_ script: String, arguments: [(String, JSONValue)], in id: PageID, world: String?) async throws(PagehostError) -> JSONValue {
        let page = try page(id)
        let prologue = arguments.map { "\($0.0) = JSON.parse(\($0.0));\n" }.joined()
        let body = prologue + script
        var entries: [OpaquePointer?] = arguments.map { name, value in
            g_variant_new_dict_entry(g_variant_new_string(name), g_variant_new_variant(g_variant_new_string(value.serialized)))
        }
        let parameters: OpaquePointer? = entries.isEmpty ? nil : entries.withUnsafeMutableBufferPointer {
            g_variant_new_array(nil, $0.baseAddress, gsize($0.count))
        }
        let view = page.view
        // A slow script may be a busy loop: have WebKit check the process, so it is reported unresponsive.
        let probe = Task { @LoopActor [weak page] in
            guard (try? await Task.sleep(for: WebKitEngine.slowCallProbe)) != nil else { return }
            page?.probeResponsiveness()
        }
        defer { probe.cancel() }
        // A script that never settles (a busy loop, a promise never resolved, a dialog nobody answers) must
        // not hold its caller forever.
        let outcome: Result<JSONValue, PagehostError> = await AsyncCallback.run(
            deadline: WebKitEngine.evaluateDeadline,
            timedOut: .failure(PagehostError(.unavailable, "the script did not finish within \(WebKitEngine.evaluateDeadline) (busy, or waiting on something)")),
            start: { callback, data in
                webkit_web_view_call_async_javascript_function(view, body, gssize(body.utf8.count), parameters, world, nil, nil, callback, data)
            }, finish: { source, result in
            var error: UnsafeMutablePointer<GError>?
            let value = webkit_web_view_call_async_javascript_function_finish(source?.assumingMemoryBound(to: WebKitWebView.self), result, &error)
            if let error {
                let message = error.pointee.message.map { String(cString: $0) } ?? "the script failed"
                g_error_free(error)
                return .failure(PagehostError(.scriptError, message))
            }
            guard let value else { return .success(.null) }
            defer { g_object_unref(UnsafeMutableRawPointer(value)) }
            return WebKitEngine.json(from: value)
        })
        return try outcome.get()
    }

    /// A JavaScriptCore value as JSON; `undefined` and functions become null.
    private static func json(from value: UnsafeMutablePointer<JSCValue>) -> Result<JSONValue, PagehostError> {
        if jsc_value_is_undefined(value) != 0 || jsc_value_is_function(value) != 0 { return .success(.null) }
        guard let text = jsc_value_to_json(value, 0) else {
            return .failure(PagehostError(.scriptError, "the script's result cannot be represented as JSON"))
        }
        defer { g_free(text) }
        do {
            return .success(try JSONParser.parse(String(cString: text), maxDepth: 256))
        } catch {
            return .failure(PagehostError(.scriptError, "the script's result is not valid JSON: \(error)"))
        }
    }
}
