/// A URL scheme that pagehost serves from a folder (the seeds' `URLSchemeHandler`): `lakes://app/index.html`
/// is the file `index.html` in the folder; the host part names nothing and may be anything.
public struct CustomScheme: Sendable, Equatable {
    public let name: String
    public let folder: String

    /// Schemes the engine owns and that cannot be taken over.
    public static let reserved: Set<String> = [
        "http", "https", "file", "about", "data", "blob", "javascript", "ws", "wss", "ftp", "resource",
        "webkit", "webkit-pdfjs-viewer", "moz-extension", "chrome", "view-source",
    ]

    /// Checks the name (RFC 3986 scheme syntax, not reserved) and that the folder exists.
    public init(name: String, folder: String, folderExists: (String) -> Bool) throws(PagehostError) {
        let lower = name.lowercased()
        guard let first = lower.unicodeScalars.first, ("a"..."z").contains(first),
              lower.unicodeScalars.allSatisfy({ ("a"..."z").contains($0) || ("0"..."9").contains($0) || "+-.".unicodeScalars.contains($0) })
        else {
            throw PagehostError(.badRequest, "custom scheme \"\(name)\" is not a valid URL scheme name (a letter, then letters, digits, + - .)")
        }
        guard !CustomScheme.reserved.contains(lower) else {
            throw PagehostError(.badRequest, "custom scheme \"\(name)\" belongs to the web engine and cannot be served from a folder")
        }
        guard folderExists(folder) else {
            throw PagehostError(.badRequest, "the folder \"\(folder)\" for custom scheme \"\(name)\" does not exist")
        }
        self.name = lower
        self.folder = folder
    }
}
