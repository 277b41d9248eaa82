import Foundation

/// A minimal HTTP/1.1 client over a POSIX socket: one request per connection (`Connection: close`).
struct HTTPTestClient: Sendable {
    let port: Int
    var token: String?

    struct Response: Sendable {
        let status: Int
        let headers: [String: String]
        let body: [UInt8]
        var text: String { String(decoding: body, as: UTF8.self) }
    }

    func get(_ path: String, headers: [String: String] = [:]) async throws -> Response {
        try await request("GET", path, headers: headers)
    }

    func post(_ path: String, json: String, headers: [String: String] = [:]) async throws -> Response {
        try await request("POST", path, headers: headers.merging(["Content-Type": "application/json"]) { a, _ in a }, body: Array(json.utf8))
    }

    func delete(_ path: String) async throws -> Response {
        try await request("DELETE", path)
    }

    func request(_ method: String, _ path: String, headers: [String: String] = [:], body: [UInt8] = [],
                 declaredLength: Int? = nil, timeout: TimeInterval = 30) async throws -> Response {
        let port = self.port
        var all = headers
        if let token, all["Authorization"] == nil { all["Authorization"] = "Bearer \(token)" }
        let headerBlock = all
        return try await offPool {
            let socket = try TCPSocket(port: port)
            var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
            for (name, value) in headerBlock.sorted(by: { $0.key < $1.key }) { head += "\(name): \(value)\r\n" }
            if !body.isEmpty || method == "POST" { head += "Content-Length: \(declaredLength ?? body.count)\r\n" }
            head += "\r\n"
            try socket.write(Array(head.utf8) + body)
            return try Self.readResponse(socket, deadline: Date().addingTimeInterval(timeout))
        }
    }

    static func readResponse(_ socket: TCPSocket, deadline: Date) throws -> Response {
        let head = String(decoding: try socket.read(upTo: Array("\r\n\r\n".utf8), deadline: deadline), as: UTF8.self)
        var lines = head.components(separatedBy: "\r\n").filter { !$0.isEmpty }
        let statusLine = lines.removeFirst().split(separator: " ")
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else { throw TestFailure("bad status line: \(head)") }
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            headers[name] = headers[name].map { "\($0), \(value)" } ?? value
        }
        let body: [UInt8]
        if let length = headers["content-length"].flatMap({ Int($0) }) {
            body = try socket.read(length, deadline: deadline)
        } else if status == 204 || status == 304 {
            body = []
        } else {
            body = try socket.readToEnd(deadline: deadline)
        }
        return Response(status: status, headers: headers, body: body)
    }
}
