import Foundation
import Server
import Testing

/// The safe default: pagehost listens on 127.0.0.1 only, never on the machine's other addresses.
@Suite("Listen address")
struct ListenAddressTests {
    /// The local addresses of listening TCP sockets on `port`, from /proc/net/tcp and tcp6 (hex, as the kernel
    /// writes them: 127.0.0.1 is `0100007F`, every IPv6 address `000…0`).
    static func listeners(on port: Int) -> [String] {
        var found: [String] = []
        for file in ["/proc/net/tcp", "/proc/net/tcp6"] {
            let text = (try? String(contentsOfFile: file, encoding: .utf8)) ?? ""
            for line in text.split(separator: "\n").dropFirst() {
                let fields = line.split(separator: " ", omittingEmptySubsequences: true)
                guard fields.count > 3, fields[3] == "0A" else { continue }  // LISTEN
                let local = fields[1].split(separator: ":")
                if local.count == 2, Int(local[1], radix: 16) == port { found.append("\(file.hasSuffix("6") ? "tcp6" : "tcp") \(local[0])") }
            }
        }
        return found
    }

    /// An IPv4 address of this machine other than loopback, if it has one.
    static func otherIPv4Address() -> String? {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0 else { return nil }
        defer { freeifaddrs(list) }
        var entry = list
        while let current = entry?.pointee {
            defer { entry = current.ifa_next }
            guard let address = current.ifa_addr, address.pointee.sa_family == sa_family_t(AF_INET) else { continue }
            var text = [CChar](repeating: 0, count: Int(INET_ADDRSTRLEN))
            var sin = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee }
            inet_ntop(AF_INET, &sin.sin_addr, &text, socklen_t(text.count))
            let ip = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if !ip.hasPrefix("127.") { return ip }
        }
        return nil
    }

    @Test func theServerListensOnLoopbackOnly() async throws {
        let fixture = try await startServer(.fake)
        // One listening socket, IPv4, bound to 127.0.0.1 (libwebsockets 4.1 bound [::] when IPv6 was on).
        #expect(Self.listeners(on: fixture.port) == ["tcp 0100007F"])
        if let other = Self.otherIPv4Address() {
            let reached = try await offPool { () -> Bool in
                let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
                defer { close(fd) }
                var address = sockaddr_in()
                address.sin_family = sa_family_t(AF_INET)
                address.sin_port = in_port_t(UInt16(fixture.port).bigEndian)
                inet_pton(AF_INET, other, &address.sin_addr)
                return withUnsafePointer(to: &address) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
                }
            }
            #expect(!reached, "pagehost answered on \(other)")
        }
        #expect(try await fixture.http.get("/api/health").status == 200)
        await fixture.stop()
    }

    @Test func theHostIsAnIPAddressAndLocalhostMeansLoopback() throws {
        func host(_ value: String) throws -> String {
            try ServeOptions.configuration(arguments: ["--host", value], environment: [:], defaultConfigFile: "/nonexistent").host
        }
        #expect(try host("localhost") == "127.0.0.1")
        #expect(try host("::1") == "::1")
        #expect(try host("0.0.0.0") == "0.0.0.0")
        // A name libwebsockets would take for a network interface: refused, instead of listening nowhere.
        do {
            _ = try host("pagehost.example")
            Issue.record("a host name was accepted")
        } catch let error as ServeOptions.Failure {
            #expect(error.message.contains("IP address"))
        }
    }
}
