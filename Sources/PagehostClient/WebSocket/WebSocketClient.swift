import Foundation
import Synchronization

/// An RFC 6455 WebSocket client over `TCPConnection`: the opening handshake (random key checked against
/// `Sec-WebSocket-Accept`, a required subprotocol), masked frames out, messages in with fragments joined,
/// pings answered with pongs, and the closing handshake.
///
/// Threads: one thread receives at a time; `send`, `ping` and `close` may be called from any thread (writes
/// are serialised). `close()` from another thread wakes a blocked `receive`.
public final class WebSocketClient: Sendable {
    public enum Message: Sendable, Equatable {
        case text(String)
        case binary([UInt8])
    }

    private let connection: TCPConnection
    /// The server's handshake headers (lower-cased names).
    public let headers: [String: String]
    /// The subprotocol the server chose.
    public let subprotocol: String?
    /// Largest message accepted (Pagehost's snapshots of many sessions are big, but not this big).
    public let maxMessageBytes: Int
    private let writeLock = Mutex(false)
    /// Set once a close frame went out.
    private let closeSent = Atomic<Bool>(false)
    private let writeTimeout: Double

    private init(connection: TCPConnection, headers: [String: String], maxMessageBytes: Int, writeTimeout: Double) {
        self.connection = connection
        self.headers = headers
        self.subprotocol = headers["sec-websocket-protocol"]
        self.maxMessageBytes = maxMessageBytes
        self.writeTimeout = writeTimeout
    }

    /// Connects and upgrades `path` (with its query) to a WebSocket speaking `subprotocol`.
    public static func connect(to address: ServerAddress, path: String, token: String?, subprotocol: String = "pagehost.v1",
                               timeout: Double = 10, maxMessageBytes: Int = 256 << 20) throws(ClientError) -> WebSocketClient {
        let deadline = Deadline.after(seconds: timeout)
        let connection = try TCPConnection(host: address.host, port: address.port, deadline: deadline)
        let key = Data((0..<16).map { _ in UInt8.random(in: 0...255) }).base64EncodedString()
        var head = "GET \(path) HTTP/1.1\r\nHost: \(address.authority)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" +
            "Sec-WebSocket-Key: \(key)\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Protocol: \(subprotocol)\r\n"
        if let token { head += "Authorization: Bearer \(token)\r\n" }
        head += "\r\n"
        do {
            try connection.write(Array(head.utf8), deadline: deadline)
            let answer = try HTTPResponseHead.parse(try connection.read(through: Array("\r\n\r\n".utf8), limit: 64 << 10, deadline: deadline))
            guard answer.status == 101 else {
                var body = ""
                if let length = answer.contentLength, length > 0, length < 1 << 20 {
                    body = String(decoding: (try? connection.read(length, deadline: deadline)) ?? [], as: UTF8.self)
                }
                throw ClientError.handshakeRefused(status: answer.status, body: body)
            }
            guard answer.headers["upgrade"]?.lowercased() == "websocket" else {
                throw ClientError.protocolViolation("101 without Upgrade: websocket")
            }
            guard answer.headers["sec-websocket-accept"] == acceptValue(for: key) else {
                throw ClientError.protocolViolation("Sec-WebSocket-Accept does not match the key")
            }
            guard answer.headers["sec-websocket-protocol"] == subprotocol else {
                throw ClientError.protocolViolation("the server did not choose subprotocol \(subprotocol)")
            }
            return WebSocketClient(connection: connection, headers: answer.headers, maxMessageBytes: maxMessageBytes, writeTimeout: timeout)
        } catch let error as ClientError {
            connection.close()
            throw error
        } catch {
            connection.close()
            throw .protocolViolation("\(error)")
        }
    }

    /// The `Sec-WebSocket-Accept` a server must answer to `key`.
    public static func acceptValue(for key: String) -> String {
        Data(SHA1.hash(Array((key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").utf8))).base64EncodedString()
    }

    // MARK: Sending

    public func send(text: String) throws(ClientError) {
        try write(WebSocketFrame(opcode: .text, payload: Array(text.utf8)))
    }

    public func ping(_ payload: [UInt8] = []) throws(ClientError) {
        try write(WebSocketFrame(opcode: .ping, payload: Array(payload.prefix(125))))
    }

    /// Starts the closing handshake (status 1000) and stops the connection; a blocked `receive` wakes with
    /// `.closed` once the server answers, or at once if it does not.
    public func close() {
        if !closeSent.exchange(true, ordering: .acquiringAndReleasing) {
            try? write(WebSocketFrame(opcode: .close, payload: [0x03, 0xE8]), allowAfterClose: true)
        }
        connection.shutdown()
    }

    private func write(_ frame: WebSocketFrame, allowAfterClose: Bool = false) throws(ClientError) {
        let bytes = frame.encoded(mask: (0..<4).map { _ in UInt8.random(in: 0...255) })
        let result: Result<Void, ClientError> = writeLock.withLock { _ in
            if !allowAfterClose, closeSent.load(ordering: .acquiring) { return .failure(.closed("the stream is closing")) }
            do throws(ClientError) { try connection.write(bytes, deadline: .after(seconds: writeTimeout)) } catch { return .failure(error) }
            return .success(())
        }
        try result.get()
    }

    // MARK: Receiving

    /// The next message, or nil when none arrived before `deadline`. Pings are answered here. Throws
    /// `.closed` when the server closes (or the connection ends) and `.protocolViolation` on a bad frame.
    public func receive(deadline: Deadline = .distant) throws(ClientError) -> Message? {
        var fragments: [UInt8] = []
        var fragmentOpcode: WebSocketFrame.Opcode?
        while true {
            let frame: WebSocketFrame
            do throws(ClientError) {
                guard let next = try nextFrame(deadline: deadline) else { return nil }
                frame = next
            } catch let error {
                if case .timedOut = error, fragmentOpcode == nil { return nil }
                throw error
            }
            switch frame.opcode {
            case .ping:
                try? write(WebSocketFrame(opcode: .pong, payload: frame.payload))
            case .pong:
                continue
            case .close:
                if !closeSent.exchange(true, ordering: .acquiringAndReleasing) {
                    try? write(WebSocketFrame(opcode: .close, payload: Array(frame.payload.prefix(2))), allowAfterClose: true)
                }
                connection.shutdown()
                let code = frame.payload.count >= 2 ? Int(frame.payload[0]) << 8 | Int(frame.payload[1]) : 1005
                throw .closed("the server closed the stream (\(code))")
            case .text, .binary:
                guard fragmentOpcode == nil else { throw .protocolViolation("a new message began inside a fragmented one") }
                if frame.fin { return Self.message(frame.opcode, frame.payload) }
                fragmentOpcode = frame.opcode
                fragments = frame.payload
            case .continuation:
                guard let opcode = fragmentOpcode else { throw .protocolViolation("continuation frame without a message") }
                guard fragments.count + frame.payload.count <= maxMessageBytes else { throw .protocolViolation("message over \(maxMessageBytes) bytes") }
                fragments += frame.payload
                if frame.fin { return Self.message(opcode, fragments) }
            }
        }
    }

    private static func message(_ opcode: WebSocketFrame.Opcode, _ payload: [UInt8]) -> Message {
        opcode == .text ? .text(String(decoding: payload, as: UTF8.self)) : .binary(payload)
    }

    /// One frame; nil on timeout before any byte of it.
    private func nextFrame(deadline: Deadline) throws(ClientError) -> WebSocketFrame? {
        while true {
            do {
                if let (frame, used) = try WebSocketFrame.decode(connection.available, maxPayload: maxMessageBytes) {
                    connection.consume(used)
                    return frame
                }
            } catch {
                throw .protocolViolation("bad frame: \(error)")
            }
            let startedFrame = !connection.available.isEmpty
            do throws(ClientError) {
                guard try connection.fill(deadline: deadline) else { throw ClientError.closed("the stream ended") }
            } catch {
                if case .timedOut = error, !startedFrame { return nil }
                throw error
            }
        }
    }
}
