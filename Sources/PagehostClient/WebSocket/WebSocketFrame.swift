/// One RFC 6455 frame, and its encoding and decoding. A codec only: it never touches a socket.
public struct WebSocketFrame: Sendable, Equatable {
    public enum Opcode: UInt8, Sendable {
        case continuation = 0x0, text = 0x1, binary = 0x2, close = 0x8, ping = 0x9, pong = 0xA

        public var isControl: Bool { rawValue & 0x8 != 0 }
    }

    public var fin: Bool
    public var opcode: Opcode
    public var payload: [UInt8]

    public init(fin: Bool = true, opcode: Opcode, payload: [UInt8]) {
        self.fin = fin
        self.opcode = opcode
        self.payload = payload
    }

    /// The frame's bytes, masked with `mask` (a client must mask every frame; a server must not).
    public func encoded(mask: [UInt8]?) -> [UInt8] {
        var out: [UInt8] = [(fin ? 0x80 : 0) | opcode.rawValue]
        out.reserveCapacity(payload.count + 14)
        let maskBit: UInt8 = mask == nil ? 0 : 0x80
        switch payload.count {
        case 0..<126:
            out.append(maskBit | UInt8(payload.count))
        case 126..<65536:
            out += [maskBit | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        default:
            out.append(maskBit | 127)
            for shift in stride(from: 56, through: 0, by: -8) { out.append(UInt8((UInt64(payload.count) >> UInt64(shift)) & 0xFF)) }
        }
        if let mask {
            out += mask
            for (i, byte) in payload.enumerated() { out.append(byte ^ mask[i & 3]) }
        } else {
            out += payload
        }
        return out
    }

    public enum DecodeError: Error, Equatable {
        case reservedBits
        case unknownOpcode(UInt8)
        case badControlFrame
        case tooLarge(UInt64)
    }

    /// Decodes one frame from the start of `bytes`: the frame and the bytes it took, or nil when more bytes
    /// are needed. Masked frames (which a server should not send) are unmasked.
    public static func decode(_ bytes: ArraySlice<UInt8>, maxPayload: Int) throws(DecodeError) -> (WebSocketFrame, Int)? {
        let base = bytes.startIndex
        guard bytes.count >= 2 else { return nil }
        let b0 = bytes[base], b1 = bytes[base + 1]
        guard b0 & 0x70 == 0 else { throw .reservedBits }
        guard let opcode = Opcode(rawValue: b0 & 0x0F) else { throw .unknownOpcode(b0 & 0x0F) }
        let fin = b0 & 0x80 != 0
        let masked = b1 & 0x80 != 0
        var length = UInt64(b1 & 0x7F)
        var offset = 2
        if length == 126 {
            guard bytes.count >= 4 else { return nil }
            length = UInt64(bytes[base + 2]) << 8 | UInt64(bytes[base + 3])
            offset = 4
        } else if length == 127 {
            guard bytes.count >= 10 else { return nil }
            length = (0..<8).reduce(UInt64(0)) { $0 << 8 | UInt64(bytes[base + 2 + $1]) }
            offset = 10
        }
        if opcode.isControl, !fin || length > 125 { throw .badControlFrame }
        guard length <= UInt64(maxPayload) else { throw .tooLarge(length) }
        var mask: [UInt8]?
        if masked {
            guard bytes.count >= offset + 4 else { return nil }
            mask = Array(bytes[(base + offset)..<(base + offset + 4)])
            offset += 4
        }
        let total = offset + Int(length)
        guard bytes.count >= total else { return nil }
        var payload = Array(bytes[(base + offset)..<(base + total)])
        if let mask {
            for i in payload.indices { payload[i] ^= mask[i & 3] }
        }
        return (WebSocketFrame(fin: fin, opcode: opcode, payload: payload), total)
    }
}
