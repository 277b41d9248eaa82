import Foundation
import PagehostCore

/// The address pagehost listens on: an IP address, as libwebsockets binds only to addresses (a name it takes
/// for a network interface, and with one it cannot find it listens nowhere while pagehost would say it does).
/// `localhost` is taken as 127.0.0.1.
enum ListenHost {
    static func validated(_ host: String) throws(PagehostError) -> String {
        if host == "localhost" { return "127.0.0.1" }
        var v4 = in_addr()
        var v6 = in6_addr()
        guard inet_pton(AF_INET, host, &v4) == 1 || inet_pton(AF_INET6, host, &v6) == 1 else {
            throw PagehostError(.badRequest, "the host must be an IP address to listen on (127.0.0.1, ::1, or 0.0.0.0 for every address), not '\(host)'")
        }
        return host
    }
}
