import CWebKitGTK
import Foundation
import PagehostCore

/// Serves custom URL schemes from folders (the seeds' `URLSchemeHandler`): `lakes://app/css/site.css` is the
/// file `css/site.css` in the scheme's folder; the host part names nothing.
///
/// Thread: the request callback runs on the loop thread. The file is handed to WebKit as a `GFileInputStream`:
/// WebKit reads it in chunks as it needs them and stops reading when the load is cancelled.
/// Paths never leave the folder: percent-decoded `..` segments, NUL bytes, backslashes and symbolic links
/// that lead outside all answer 404.
@LoopActor
enum CustomSchemeHandler {
    /// Scheme name → folder (resolved, no trailing slash). Registered schemes stay registered for the
    /// process (WebKit has no way to unregister one); a later engine may point one at another folder.
    private static var folders: [String: String] = [:]

    static func register(_ schemes: [CustomScheme], in context: UnsafeMutablePointer<WebKitWebContext>) {
        let security = webkit_web_context_get_security_manager(context)
        for scheme in schemes {
            let isNew = folders[scheme.name] == nil
            folders[scheme.name] = URL(fileURLWithPath: scheme.folder).resolvingSymlinksInPath().path
            guard isNew else { continue }
            webkit_web_context_register_uri_scheme(context, scheme.name, { request, _ in
                guard let request else { return }
                let bits = UInt(bitPattern: request)
                LoopActor.assumeIsolated { CustomSchemeHandler.serve(UnsafeMutablePointer(bitPattern: bits)!) }
            }, nil, nil)
            // Pages of the scheme may fetch their own files and count as secure contexts.
            webkit_security_manager_register_uri_scheme_as_secure(security, scheme.name)
            webkit_security_manager_register_uri_scheme_as_cors_enabled(security, scheme.name)
        }
    }

    private static func serve(_ request: UnsafeMutablePointer<WebKitURISchemeRequest>) {
        let scheme = String(cString: webkit_uri_scheme_request_get_scheme(request))
        let path = webkit_uri_scheme_request_get_path(request).map { String(cString: $0) } ?? "/"
        guard let folder = folders[scheme], let file = resolve(path, in: folder) else {
            finish(request, status: 404, type: "text/plain; charset=utf-8", body: Array("Not found\n".utf8))
            return
        }
        var error: UnsafeMutablePointer<GError>?
        let gfile = g_file_new_for_path(file)
        defer { g_object_unref(UnsafeMutableRawPointer(gfile)) }
        guard let stream = g_file_read(gfile, nil, &error) else {
            if let error { g_error_free(error) }
            finish(request, status: 404, type: "text/plain; charset=utf-8", body: Array("Not found\n".utf8))
            return
        }
        let size = (try? FileManager.default.attributesOfItem(atPath: file)[.size] as? Int) ?? -1
        let response = webkit_uri_scheme_response_new(UnsafeMutableRawPointer(stream).assumingMemoryBound(to: GInputStream.self), gint64(size))
        webkit_uri_scheme_response_set_status(response, 200, nil)
        webkit_uri_scheme_response_set_content_type(response, mimeType(of: file))
        webkit_uri_scheme_request_finish_with_response(request, response)
        g_object_unref(response)
        g_object_unref(stream)
    }

    private static func finish(_ request: UnsafeMutablePointer<WebKitURISchemeRequest>, status: UInt32, type: String, body: [UInt8]) {
        let bytes = body.withUnsafeBytes { g_bytes_new($0.baseAddress, gsize($0.count)) }
        let stream = g_memory_input_stream_new_from_bytes(bytes)
        g_bytes_unref(bytes)
        let response = webkit_uri_scheme_response_new(stream, gint64(body.count))
        webkit_uri_scheme_response_set_status(response, guint(status), nil)
        webkit_uri_scheme_response_set_content_type(response, type)
        webkit_uri_scheme_request_finish_with_response(request, response)
        g_object_unref(response)
        g_object_unref(stream)
    }

    /// The file a URL path names inside `folder`, or nil when it names nothing there.
    static func resolve(_ rawPath: String, in folder: String) -> String? {
        guard let decoded = rawPath.removingPercentEncoding, !decoded.contains("\0"), !decoded.contains("\\") else { return nil }
        var segments: [Substring] = []
        for segment in decoded.split(separator: "/", omittingEmptySubsequences: true) {
            if segment == "." { continue }
            if segment == ".." { return nil }
            segments.append(segment)
        }
        if decoded.hasSuffix("/") || segments.isEmpty { segments.append("index.html") }
        let candidate = URL(fileURLWithPath: folder).appendingPathComponent(segments.joined(separator: "/"))
        let real = candidate.resolvingSymlinksInPath().path
        var isDirectory: ObjCBool = false
        guard real.hasPrefix(folder + "/"), FileManager.default.fileExists(atPath: real, isDirectory: &isDirectory),
              !isDirectory.boolValue else { return nil }
        return real
    }

    static func mimeType(of path: String) -> String {
        switch (path as NSString).pathExtension.lowercased() {
        case "html", "htm": return "text/html; charset=utf-8"
        case "css": return "text/css; charset=utf-8"
        case "js", "mjs": return "text/javascript; charset=utf-8"
        case "json": return "application/json"
        case "txt": return "text/plain; charset=utf-8"
        case "svg": return "image/svg+xml"
        case "png": return "image/png"
        case "jpg", "jpeg": return "image/jpeg"
        case "gif": return "image/gif"
        case "webp": return "image/webp"
        case "ico": return "image/x-icon"
        case "woff": return "font/woff"
        case "woff2": return "font/woff2"
        case "wasm": return "application/wasm"
        case "xml": return "application/xml"
        default: return "application/octet-stream"
        }
    }
}
