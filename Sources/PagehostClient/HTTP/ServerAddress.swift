/// Where a Pagehost server listens: `http://HOST:PORT` (no TLS: Pagehost serves plain HTTP on loopback).
public struct ServerAddress: Sendable, Equatable, CustomStringConvertible {
    public var host: String
    public var port: Int

    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    /// Parses `http://host:port[/]`, `host:port` or `http://[::1]:port`; the port defaults to 80.
    public init?(url text: String) {
        var rest = Substring(text)
        if rest.hasPrefix("http://") { rest = rest.dropFirst("http://".count) } else if rest.contains("://") { return nil }
        if let slash = rest.firstIndex(of: "/") {
            guard rest[slash...].allSatisfy({ $0 == "/" }) else { return nil }
            rest = rest[..<slash]
        }
        var host = rest
        var port = 80
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else { return nil }
            host = rest[...close]
            let after = rest[rest.index(after: close)...]
            if after.hasPrefix(":") { guard let p = Int(after.dropFirst()) else { return nil }; port = p } else if !after.isEmpty { return nil }
        } else if let colon = rest.lastIndex(of: ":") {
            host = rest[..<colon]
            guard let p = Int(rest[rest.index(after: colon)...]) else { return nil }
            port = p
        }
        // A name or an address: letters, digits, '.', '-', '_' (and ':' inside brackets); never an option.
        let allowed = host.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || ".-_[]:".contains($0)) }
        guard !host.isEmpty, !host.hasPrefix("-"), allowed, (1...65535).contains(port) else { return nil }
        self.host = String(host)
        self.port = port
    }

    /// The `Host` header's value.
    public var authority: String {
        host.contains(":") && !host.hasPrefix("[") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

    public var description: String { "http://\(authority)" }
}
