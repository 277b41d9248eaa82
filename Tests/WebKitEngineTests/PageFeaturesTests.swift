import MainLoop
import PagehostCore
import Testing
import WebKitEngine

/// Screenshots at the viewport's size and the user agent suffix.
@Suite
struct PageFeaturesTests {
    init() { MainLoop.shared.start() }

    @Test @LoopActor func theScreenshotIsAPNGOfTheViewport() async throws {
        let h = try EngineHarness.make()
        defer { h.tearDown() }
        var options = SessionOptions()
        options.viewport = Viewport(width: 640, height: 480)
        let (_, main) = try await h.openSession(
            .html("<title>s</title><body style='margin:0;background:#ff0000'>", baseURL: "http://127.0.0.1/"), options: options)
        #expect(try await h.eval(main, "return [innerWidth, innerHeight, document.hidden]") == [640, 480, false])
        let png = try await h.host.screenshot(main)
        #expect(Array(png.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        // IHDR: width and height, big-endian, at bytes 16..<24.
        func be32(_ at: Int) -> Int { png[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) } }
        #expect(Array(png[12..<16]) == Array("IHDR".utf8))
        #expect(be32(16) == 640)
        #expect(be32(20) == 480)
    }

    @Test @LoopActor func theUserAgentSuffixIsAppended() async throws {
        let h = try EngineHarness.make()
        defer { h.tearDown() }
        var options = SessionOptions()
        options.userAgentSuffix = "GOOGLE_PAY_SUPPORTED"
        let (session, main) = try await h.openSession(.html("<title>u</title>", baseURL: "http://127.0.0.1/"), options: options)
        let agent = try #require(try await h.eval(main, "return navigator.userAgent").stringValue)
        #expect(agent.hasSuffix(" GOOGLE_PAY_SUPPORTED"))
        #expect(agent.contains("AppleWebKit"))
        #expect(try h.host.snapshot(of: session).userAgent == agent)
        // Another session without a suffix keeps the engine's default.
        let (_, other) = try await h.openSession(.html("<title>u</title>", baseURL: "http://127.0.0.1/"))
        let plain = try #require(try await h.eval(other, "return navigator.userAgent").stringValue)
        #expect(!plain.contains("GOOGLE_PAY_SUPPORTED"))
    }
}
