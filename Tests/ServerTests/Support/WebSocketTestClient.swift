import Foundation
import PagehostClient
import PagehostCore

/// A minimal RFC 6455 client for tests: opening handshake with a random `Sec-WebSocket-Key` (checked against
/// `Sec-WebSocket-Accept`), masked text frames out, text messages in (fragments joined, pings answered),
/// reads with deadlines. Blocking; every call runs off the cooperative pool.
final class WebSocketTestClient: @unchecked Sendable {
    let socket: TCPSocket
    /// The server's handshake answer headers.
    let headers: [String: String]
    private let lock = NSLock()

    /// A refused handshake: the HTTP status and body the server answered instead of 101.
    struct Refused: Error, CustomStringConvertible {
        let status: Int
        let body: String
        var description: String { "handshake refused: \(status) \(body)" }
    }

    private init(socket: TCPSocket, headers: [String: String]) {
        self.socket = socket
        self.headers = headers
    }

    static func connect(port: Int, path: String, token: String?, origin: String? = nil,
                        subprotocol: String? = "pagehost.v1", receiveBufferBytes: Int? = nil,
                        timeout: TimeInterval = 10) async throws -> WebSocketTestClient {
        try await offPool {
            let socket = try TCPSocket(port: port, receiveBufferBytes: receiveBufferBytes)
            let key = Data((0..<16).map { _ in UInt8.random(in: 0...255) }).base64EncodedString()
            var head = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" +
                "Sec-WebSocket-Key: \(key)\r\nSec-WebSocket-Version: 13\r\n"
            if let subprotocol { head += "Sec-WebSocket-Protocol: \(subprotocol)\r\n" }
            if let token { head += "Authorization: Bearer \(token)\r\n" }
            if let origin { head += "Origin: \(origin)\r\n" }
            head += "\r\n"
            try socket.write(Array(head.utf8))
            let deadline = Date().addingTimeInterval(timeout)
            let response = String(decoding: try socket.read(upTo: Array("\r\n\r\n".utf8), deadline: deadline), as: UTF8.self)
            var lines = response.components(separatedBy: "\r\n").filter { !$0.isEmpty }
            let status = Int(lines.removeFirst().split(separator: " ")[1]) ?? 0
            var headers: [String: String] = [:]
            for line in lines {
                guard let colon = line.firstIndex(of: ":") else { continue }
                headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
            guard status == 101 else {
                var body = ""
                if let length = headers["content-length"].flatMap({ Int($0) }), length > 0 {
                    body = String(decoding: (try? socket.read(length, deadline: deadline)) ?? [], as: UTF8.self)
                }
                throw Refused(status: status, body: body)
            }
            guard headers["sec-websocket-accept"] == Self.accept(for: key) else {
                throw TestFailure("bad Sec-WebSocket-Accept")
            }
            return WebSocketTestClient(socket: socket, headers: headers)
        }
    }

    static func accept(for key: String) -> String {
        Data(SHA1.hash(Array((key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").utf8))).base64EncodedString()
    }

    // MARK: Sending

    func send(_ text: String) async throws {
        try await offPool { try self.writeFrame(opcode: 0x1, payload: Array(text.utf8)) }
    }

    func send(_ json: JSONValue) async throws {
        try await send(json.serialized)
    }

    func close() async {
        _ = try? await offPool { try self.writeFrame(opcode: 0x8, payload: [0x03, 0xE8]) }
    }

    private func writeFrame(opcode: UInt8, payload: [UInt8]) throws {
        var frame: [UInt8] = [0x80 | opcode]
        let mask = (0..<4).map { _ in UInt8.random(in: 0...255) }
        switch payload.count {
        case 0..<126: frame.append(0x80 | UInt8(payload.count))
        case 126..<65536: frame += [0x80 | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        default:
            frame.append(0x80 | 127)
            frame += (0..<8).reversed().map { UInt8((UInt64(payload.count) >> (UInt64($0) * 8)) & 0xFF) }
        }
        frame += mask
        frame += payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
        lock.lock()
        defer { lock.unlock() }
        try socket.write(frame)
    }

    // MARK: Receiving

    /// The next text message; throws on timeout or when the server closes.
    func receive(timeout: TimeInterval = 10) async throws -> String {
        try await offPool { try self.receiveBlocking(deadline: Date().addingTimeInterval(timeout)) }
    }

    /// The next message as JSON.
    func receiveJSON(timeout: TimeInterval = 10) async throws -> JSONValue {
        let text = try await receive(timeout: timeout)
        return try JSONParser.parse(text)
    }

    /// Messages until one satisfies `predicate` (returned last), within `timeout` overall.
    func receive(until predicate: @escaping @Sendable (JSONValue) -> Bool, timeout: TimeInterval = 15) async throws -> [JSONValue] {
        try await offPool {
            let deadline = Date().addingTimeInterval(timeout)
            var messages: [JSONValue] = []
            while true {
                let message = try JSONParser.parse(try self.receiveBlocking(deadline: deadline))
                messages.append(message)
                if predicate(message) { return messages }
            }
        }
    }

    /// Messages until everything received so far satisfies `stopWhen`, within `timeout` overall.
    func receive(collectingUntil stopWhen: @escaping @Sendable ([JSONValue]) -> Bool,
                 timeout: TimeInterval = 15) async throws -> [JSONValue] {
        try await offPool {
            let deadline = Date().addingTimeInterval(timeout)
            var messages: [JSONValue] = []
            while !stopWhen(messages) {
                messages.append(try JSONParser.parse(try self.receiveBlocking(deadline: deadline)))
            }
            return messages
        }
    }

    /// Whether the server closed the connection (a close frame or end of stream) within the timeout.
    func waitForClose(timeout: TimeInterval = 10) async -> Bool {
        (try? await offPool { () -> Bool in
            let deadline = Date().addingTimeInterval(timeout)
            while true {
                do { _ = try self.receiveBlocking(deadline: deadline) } catch let error as TestFailure {
                    return error.description == "closed"
                }
            }
        }) ?? false
    }

    private func receiveBlocking(deadline: Date) throws -> String {
        var message: [UInt8] = []
        while true {
            let head = try readOrClosed(2, deadline)
            let fin = head[0] & 0x80 != 0
            let opcode = head[0] & 0x0F
            var length = UInt64(head[1] & 0x7F)
            if length == 126 {
                let b = try readOrClosed(2, deadline)
                length = UInt64(b[0]) << 8 | UInt64(b[1])
            } else if length == 127 {
                length = try readOrClosed(8, deadline).reduce(0) { $0 << 8 | UInt64($1) }
            }
            let payload = try readOrClosed(Int(length), deadline)
            switch opcode {
            case 0x8: throw TestFailure("closed")
            case 0x9:
                try writeFrame(opcode: 0xA, payload: payload)
            case 0xA:
                break
            default:
                message += payload
                if fin { return String(decoding: message, as: UTF8.self) }
            }
        }
    }

    private func readOrClosed(_ count: Int, _ deadline: Date) throws -> [UInt8] {
        do {
            return try socket.read(count, deadline: deadline)
        } catch let error as TestFailure where error.description == "connection closed" {
            throw TestFailure("closed")
        }
    }
}
