import Foundation
import MainLoop
import PagehostCore
import Testing
import WebKitEngine

/// Custom schemes served from a folder, and paths that try to leave it.
@Suite
struct CustomSchemeTests {
    init() { MainLoop.shared.start() }

    /// A folder with a page, its stylesheet and image, and a link pointing out of the folder.
    static let folder: String = {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("pagehost-lakes-\(UUID().uuidString)")
        let site = root.appendingPathComponent("site")
        try! FileManager.default.createDirectory(at: site.appendingPathComponent("img"), withIntermediateDirectories: true)
        try! "<!doctype html><title>Lakes</title><link rel=stylesheet href=style.css><h1>Lakes</h1><img id=lake src=img/lake.svg>"
            .write(to: site.appendingPathComponent("index.html"), atomically: true, encoding: .utf8)
        try! "h1 { color: rgb(1, 2, 3); }".write(to: site.appendingPathComponent("style.css"), atomically: true, encoding: .utf8)
        try! "<svg xmlns='http://www.w3.org/2000/svg' width='37' height='23'><rect width='37' height='23'/></svg>"
            .write(to: site.appendingPathComponent("img/lake.svg"), atomically: true, encoding: .utf8)
        try! "secret".write(to: root.appendingPathComponent("secret.txt"), atomically: true, encoding: .utf8)
        try! FileManager.default.createSymbolicLink(atPath: site.appendingPathComponent("escape.txt").path,
                                                    withDestinationPath: root.appendingPathComponent("secret.txt").path)
        return site.path
    }()

    static func scheme() throws -> CustomScheme {
        try CustomScheme(name: "lakes", folder: folder) { FileManager.default.fileExists(atPath: $0) }
    }

    @Test @LoopActor func aPageWithItsStylesheetAndImageLoadsFromTheFolder() async throws {
        let h = try EngineHarness.make(customSchemes: [try Self.scheme()])
        defer { h.tearDown() }
        let (_, main) = try await h.openSession(.url("lakes://app/index.html"))
        try await h.waitUntilAsync("the image loaded") {
            (try? await h.eval(main, "return document.getElementById('lake').complete")) == true
        }
        let result = try await h.eval(main, """
            return { title: document.title, colour: getComputedStyle(document.querySelector('h1')).color,
                     width: document.getElementById('lake').naturalWidth, height: document.getElementById('lake').naturalHeight };
            """)
        #expect(result == ["title": "Lakes", "colour": "rgb(1, 2, 3)", "width": 37, "height": 23])
    }

    @Test @LoopActor func pathsOutOfTheFolderAreNotFound() async throws {
        let h = try EngineHarness.make(customSchemes: [try Self.scheme()])
        defer { h.tearDown() }
        let (_, main) = try await h.openSession(.url("lakes://app/index.html"))
        // A host of ".." is no URL WebKit will load at all: the fetch fails before reaching the folder.
        #expect(try await h.eval(main, "try { return (await fetch('lakes://../../etc/passwd')).status } catch (e) { return 'refused' }") == "refused")
        let statuses = try await h.eval(main, """
            const urls = ['lakes://app/../../etc/passwd', 'lakes://app/%2e%2e/%2e%2e/etc/passwd',
                          'lakes://app/..%2f..%2fsecret.txt', 'lakes://app/%2E%2E/secret.txt', 'lakes://app/..%5csecret.txt',
                          'lakes://app/escape.txt', 'lakes://app/img/%00.svg', 'lakes://app/style.css'];
            const out = [];
            for (const url of urls) {
              try { out.push((await fetch(url)).status); } catch (e) { out.push('error: ' + e.message); }
            }
            return out;
            """)
        #expect(statuses == [404, 404, 404, 404, 404, 404, 404, 200])
    }

    @Test(arguments: ["http", "https", "file", "about", "data", "blob", "1lakes", "la kes"])
    func schemesTheEngineOwnsOrBadNamesAreRefused(name: String) {
        #expect(throws: PagehostError.self) {
            _ = try CustomScheme(name: name, folder: "/tmp") { _ in true }
        }
    }
}
