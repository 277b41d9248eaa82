import Foundation
import PagehostCore

/// Raw RFC 6455 frames over a handshaken `WebSocketTestClient`'s socket, for fuzzing the stream: any FIN bit,
/// opcode, mask or length, and a reader that says how the server reacted (a text message, or a close and its
/// code). Blocking; every call runs off the cooperative pool.
struct RawWebSocket: Sendable {
    let client: WebSocketTestClient

    /// What the server did after some input.
    enum Reaction: Equatable, CustomStringConvertible {
        /// A text message (a command's answer or an event).
        case message(JSONValue)
        /// A close frame (with its status code, when it had one) or the end of the connection.
        case closed(code: Int?)

        var description: String {
            switch self {
            case .message(let json): return "message \(json.serialized.prefix(300))"
            case .closed(let code): return "closed \(code.map(String.init) ?? "(no code)")"
            }
        }
    }

    static func frame(fin: Bool = true, opcode: UInt8, payload: [UInt8], masked: Bool = true) -> [UInt8] {
        var frame: [UInt8] = [(fin ? 0x80 : 0) | opcode]
        let maskBit: UInt8 = masked ? 0x80 : 0
        switch payload.count {
        case 0..<126: frame.append(maskBit | UInt8(payload.count))
        case 126..<65536: frame += [maskBit | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        default:
            frame.append(maskBit | 127)
            frame += (0..<8).reversed().map { UInt8((UInt64(payload.count) >> (UInt64($0) * 8)) & 0xFF) }
        }
        guard masked else { return frame + payload }
        let mask = (0..<4).map { _ in UInt8.random(in: 0...255) }
        return frame + mask + payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
    }

    /// Writes bytes as they are; a server that already closed may refuse them (ignored: its reaction says it).
    func write(_ bytes: [UInt8]) async {
        let socket = client.socket
        _ = try? await offPool { try socket.write(bytes) }
    }

    func send(fin: Bool = true, opcode: UInt8 = 0x1, _ payload: [UInt8], masked: Bool = true) async {
        await write(Self.frame(fin: fin, opcode: opcode, payload: payload, masked: masked))
    }

    func send(_ text: String) async { await send(Array(text.utf8)) }

    /// The next text message or the close, skipping pings and pongs; throws only on timeout.
    func reaction(timeout: TimeInterval = 15) async throws -> Reaction {
        let socket = client.socket
        return try await offPool {
            let deadline = Date().addingTimeInterval(timeout)
            func read(_ count: Int) throws -> [UInt8]? {
                do { return try socket.read(count, deadline: deadline) } catch let error as TestFailure where error.description == "connection closed" {
                    return nil
                }
            }
            var message: [UInt8] = []
            while true {
                guard let head = try read(2) else { return .closed(code: nil) }
                var length = UInt64(head[1] & 0x7F)
                if length == 126 {
                    guard let b = try read(2) else { return .closed(code: nil) }
                    length = UInt64(b[0]) << 8 | UInt64(b[1])
                } else if length == 127 {
                    guard let b = try read(8) else { return .closed(code: nil) }
                    length = b.reduce(0) { $0 << 8 | UInt64($1) }
                }
                guard let payload = try read(Int(length)) else { return .closed(code: nil) }
                switch head[0] & 0x0F {
                case 0x8: return .closed(code: payload.count >= 2 ? Int(payload[0]) << 8 | Int(payload[1]) : nil)
                case 0x9, 0xA: continue
                default:
                    message += payload
                    if head[0] & 0x80 != 0 { return .message(try JSONParser.parse(message)) }
                }
            }
        }
    }
}
