/// Which browser origins may open the stream: the server's own (loopback names and the configured host,
/// on the port it listens on) and the ones the config allows. A request without `Origin` is not from a
/// browser page and is let through (the token still applies).
public struct OriginPolicy: Sendable {
    private let allowed: Set<String>

    public init(host: String, port: Int, extra: [String]) {
        var names: Set<String> = ["127.0.0.1", "localhost", "[::1]"]
        if host != "0.0.0.0", host != "::", !host.isEmpty {
            names.insert(host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host)
        }
        var origins = Set(names.map { "http://\($0):\(port)" })
        if port == 80 { origins.formUnion(names.map { "http://\($0)" }) }
        origins.formUnion(extra.map { $0.lowercased().trimmingTrailingSlash })
        allowed = origins
    }

    public func allows(_ origin: String?) -> Bool {
        guard let origin else { return true }
        return allowed.contains(origin.lowercased().trimmingTrailingSlash)
    }
}

extension String {
    var trimmingTrailingSlash: String { hasSuffix("/") ? String(dropLast()) : self }
}
