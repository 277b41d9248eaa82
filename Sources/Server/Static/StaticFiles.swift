import Foundation

/// Serves one folder read-only: `/` and folders answer their `index.html`; paths that climb out of the folder,
/// hidden files and symlinks out of it are not found. Files are read off the loop thread.
struct StaticFiles: Sendable {
    let root: String
    /// Extra headers on every file (the dashboard's Content-Security-Policy).
    let headers: [(String, String)]

    /// Headers every static answer carries.
    static let common: [(String, String)] = [("x-content-type-options", "nosniff"), ("cache-control", "no-cache")]

    /// The dashboard's policy: no inline scripts, nothing from other origins.
    static let dashboardPolicy = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; " +
        "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

    /// Reads the file for `relativePath` (the request path below the folder's mount). Runs off the loop thread.
    func response(for relativePath: String) async -> HTTPResponse {
        let root = self.root
        let headers = self.headers
        return await Task.detached { () -> HTTPResponse in
            guard let file = StaticFiles.resolve(relativePath, under: root),
                  let data = FileManager.default.contents(atPath: file)
            else {
                return HTTPResponse.error(status: 404, code: "not_found", message: "no file \(relativePath)")
                    .adding(StaticFiles.common)
            }
            return HTTPResponse(status: 200, headers: [("content-type", StaticFiles.contentType(of: file))] + StaticFiles.common + headers,
                                body: [UInt8](data))
        }.value
    }

    /// The file a path names, or nil when it is outside the folder, hidden, or missing.
    static func resolve(_ relativePath: String, under root: String) -> String? {
        let parts = relativePath.split(separator: "/")
        guard !parts.contains(where: { $0.hasPrefix(".") || $0.contains("\0") || $0.contains("\\") }) else { return nil }
        let base = URL(fileURLWithPath: root).standardizedFileURL.resolvingSymlinksInPath()
        var url = parts.reduce(base) { $0.appendingPathComponent(String($1)) }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else { return nil }
        if isDirectory.boolValue { url.appendPathComponent("index.html") }
        let resolved = url.standardizedFileURL.resolvingSymlinksInPath().path
        guard resolved.hasPrefix(base.path + "/") else { return nil }
        var resolvedIsDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: resolved, isDirectory: &resolvedIsDirectory), !resolvedIsDirectory.boolValue else { return nil }
        return resolved
    }

    static func contentType(of path: String) -> String {
        switch URL(fileURLWithPath: path).pathExtension.lowercased() {
        case "html", "htm": return "text/html; charset=utf-8"
        case "js", "mjs": return "text/javascript; charset=utf-8"
        case "css": return "text/css; charset=utf-8"
        case "json": return "application/json; charset=utf-8"
        case "svg": return "image/svg+xml"
        case "png": return "image/png"
        case "jpg", "jpeg": return "image/jpeg"
        case "gif": return "image/gif"
        case "ico": return "image/x-icon"
        case "txt": return "text/plain; charset=utf-8"
        case "woff2": return "font/woff2"
        default: return "application/octet-stream"
        }
    }
}

extension HTTPResponse {
    func adding(_ extra: [(String, String)]) -> HTTPResponse {
        var copy = self
        copy.headers += extra
        return copy
    }
}
