import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A tiny HTTP/1.1 server on 127.0.0.1 for tests that need real HTTP (redirects, cookies, same-origin
/// popups). One thread accepts; each connection is answered on a thread of its own (an idle speculative
/// connection from the engine must not hold up the next request); every response closes the connection.
final class TestHTTPServer: @unchecked Sendable {
    struct Response: Sendable {
        var status: Int = 200
        var headers: [(String, String)] = [("Content-Type", "text/html; charset=utf-8")]
        var body: String = ""
    }

    typealias Handler = @Sendable (_ path: String) -> Response

    let port: UInt16
    private let socket: Int32
    private let handler: Handler

    var origin: String { "http://127.0.0.1:\(port)" }

    /// Answers every request with headers and then holds the connection, never finishing the body.
    convenience init(hold: Bool) throws {
        try self.init { _ in .init() }
        holdsResponses = hold
    }

    private var holdsResponses = false

    init(handler: @escaping Handler) throws {
        self.handler = handler
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.socket = socket
        var yes: Int32 = 1
        setsockopt(socket, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(socket, 64) == 0 else { throw POSIXError(.EADDRINUSE) }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) }
        }
        port = UInt16(bigEndian: address.sin_port)
        let thread = Thread { [self] in self.serve() }
        thread.start()
    }

    /// Stops accepting: the port is closed afterwards.
    func stop() {
        shutdown(socket, Int32(SHUT_RDWR))
        close(socket)
    }

    private func serve() {
        while true {
            let client = accept(socket, nil, nil)
            if client < 0 { return }
            Thread { [self] in self.answer(client) }.start()
        }
    }

    private func answer(_ client: Int32) {
        var request = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !request.containsHeaderEnd {
            let n = read(client, &buffer, buffer.count)
            if n <= 0 { break }
            request += buffer[0..<n]
        }
        let line = String(decoding: request.prefix { $0 != 13 }, as: UTF8.self)
        let parts = line.split(separator: " ")
        let path = parts.count > 1 ? String(parts[1]) : "/"
        if holdsResponses {
            let head = "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 1000000\r\n\r\n<title>partial</title>"
            _ = Array(head.utf8).withUnsafeBufferPointer { write(client, $0.baseAddress, $0.count) }
            // Hold the connection until the client gives up.
            var byte: UInt8 = 0
            while read(client, &byte, 1) > 0 {}
            close(client)
            return
        }
        let response = handler(path)
        let body = Array(response.body.utf8)
        var head = "HTTP/1.1 \(response.status) X\r\n"
        for (name, value) in response.headers { head += "\(name): \(value)\r\n" }
        head += "Content-Length: \(body.count)\r\nConnection: close\r\n\r\n"
        let bytes = Array(head.utf8) + body
        _ = bytes.withUnsafeBufferPointer { write(client, $0.baseAddress, $0.count) }
        close(client)
    }
}

private extension Array where Element == UInt8 {
    var containsHeaderEnd: Bool {
        guard count >= 4 else { return false }
        for i in 0...(count - 4) where self[i] == 13 && self[i + 1] == 10 && self[i + 2] == 13 && self[i + 3] == 10 {
            return true
        }
        return false
    }
}
