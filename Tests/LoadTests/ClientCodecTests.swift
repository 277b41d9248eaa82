import PagehostClient
import Testing

/// The client's codecs, without a server: WebSocket frames, server addresses, the metrics text.
@Suite
struct ClientCodecTests {
    @Test(arguments: [0, 5, 125, 126, 65535, 65536, 70000])
    func aFrameDecodesToWhatWasEncoded(length: Int) throws {
        let payload = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let frame = WebSocketFrame(opcode: .text, payload: payload)
        for mask in [nil, [UInt8(1), 2, 3, 4]] {
            let bytes = frame.encoded(mask: mask)
            // Every prefix is "need more bytes", never an error or a wrong frame.
            for cut in [0, 1, 2, min(5, bytes.count - 1), bytes.count - 1] where cut < bytes.count {
                #expect(try WebSocketFrame.decode(bytes[0..<cut], maxPayload: 1 << 20) == nil)
            }
            let (decoded, used) = try #require(try WebSocketFrame.decode((bytes + [0x81])[...], maxPayload: 1 << 20))
            #expect(decoded == frame)
            #expect(used == bytes.count)
        }
    }

    @Test func badFramesAreRefused() {
        #expect(throws: WebSocketFrame.DecodeError.reservedBits) { try WebSocketFrame.decode([0xC1, 0x00][...], maxPayload: 10) }
        #expect(throws: WebSocketFrame.DecodeError.unknownOpcode(3)) { try WebSocketFrame.decode([0x83, 0x00][...], maxPayload: 10) }
        #expect(throws: WebSocketFrame.DecodeError.badControlFrame) { try WebSocketFrame.decode([0x09, 0x00][...], maxPayload: 10) }
        #expect(throws: WebSocketFrame.DecodeError.tooLarge(11)) { try WebSocketFrame.decode([0x81, 11][...], maxPayload: 10) }
    }

    @Test func theHandshakeAcceptValueIsRFC6455s() {
        // The example of RFC 6455 section 1.3.
        #expect(WebSocketClient.acceptValue(for: "dGhlIHNhbXBsZSBub25jZQ==") == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
    }

    @Test(arguments: [
        ("http://127.0.0.1:8080", "127.0.0.1", 8080),
        ("http://localhost:9000/", "localhost", 9000),
        ("127.0.0.1:81", "127.0.0.1", 81),
        ("http://[::1]:8080", "[::1]", 8080),
        ("http://example.test", "example.test", 80),
    ])
    func serverAddressesParse(text: String, host: String, port: Int) throws {
        let address = try #require(ServerAddress(url: text))
        #expect(address.host == host)
        #expect(address.port == port)
    }

    @Test(arguments: ["https://127.0.0.1:8080", "http://127.0.0.1:0", "http://127.0.0.1:x", "http://:80", "http://h:80/api",
                      "--token", "http://a b:80"])
    func badServerAddressesDoNot(text: String) {
        #expect(ServerAddress(url: text) == nil)
    }

    @Test func metricsTextParses() {
        let samples = PrometheusSamples(text: """
            # HELP pagehost_pages Pages open, by role.
            # TYPE pagehost_pages gauge
            pagehost_pages{role="main"} 3
            pagehost_pages{role="popup"} 2
            pagehost_popups_closed_total{reason="admin"} 4
            pagehost_label_escapes{text="a\\"b,c=d"} 1
            pagehost_resident_memory_bytes 123456789
            """)
        #expect(samples.value("pagehost_pages") == 5)
        #expect(samples.value("pagehost_pages", ["role": "popup"]) == 2)
        #expect(samples.value("pagehost_popups_closed_total", ["reason": "admin"]) == 4)
        #expect(samples.value("pagehost_label_escapes", ["text": "a\"b,c=d"]) == 1)
        #expect(samples.value("pagehost_resident_memory_bytes") == 123_456_789)
        #expect(samples.value("pagehost_processes") == nil)
    }
}
