import Foundation
import PagehostCore
import Testing

/// The stream over real WebKit pages: a real server on loopback, a real WebSocket client.
@Suite("Stream with real pages")
struct StreamLifecycleTests {
    @Test func sessionWithPopupStreamsEveryEventInOrder() async throws {
        let fixture = try await startServer()
        let stream = try await fixture.stream()
        let snapshot = try await stream.receiveJSON()
        #expect(snapshot.type == "snapshot")
        let start = try #require(snapshot.seq)

        let created = try await fixture.http.post("/api/sessions", json: JSONValue.object([("html", .string(TestPages.opener(popups: 1)))]).serialized)
        #expect(created.status == 201)
        let session = try JSONParser.parse(created.body)
        let mainID = try #require(session["pages"]?.arrayValue?.first?["id"]?.stringValue)

        // Read until the popup is open and titled and the main page has its title, in whatever order they come.
        let seen = try await stream.receive(collectingUntil: { seen in
            let popup = seen.first { $0.isEvent("page.opened") && $0["page"]?["role"] == "popup" }
            guard let popupID = popup?["pageId"]?.stringValue else { return false }
            return seen.contains { $0.updates("title", to: "Opener", page: mainID) }
                && (popup?["page"]?["title"] == "Popup 1" || seen.contains { $0.updates("title", to: "Popup 1", page: popupID) })
        }, timeout: 30)
        let popup = try #require(seen.first { $0.isEvent("page.opened") && $0["page"]?["role"] == "popup" })
        #expect(popup["openerId"]?.stringValue == mainID)
        #expect(popup["page"]?["openerId"]?.stringValue == mainID)
        #expect(popup["page"]?["hasOpener"] == true)
        #expect(seen.first?.type == "session.created")
        #expect(seen.first?["session"]?["id"] == session["id"])
        #expect(seen.dropFirst().first?.isEvent("page.opened", page: mainID) == true)
        #expect(seen.contains { $0.updates("estimatedProgress", page: mainID) })
        #expect(seen.contains { $0.updates("isLoading", to: false, page: mainID) })
        // Every event once, in seq order, with no gaps after the snapshot.
        let seqs = seen.compactMap(\.seq)
        #expect(seqs == Array((start + 1)...(start + seqs.count)))
        await stream.close()
        await fixture.stop()
    }
}
