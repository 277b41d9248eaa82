import PagehostCore
import Testing

/// Events as the wire shows them: `{"type", "seq", "sessionId", …}`.
@Suite("Event JSON")
struct EventJSONTests {
    init() { startLoop() }

    private static func keys(_ event: Event?) -> [String]? {
        event?.json.objectValue?.map(\.0)
    }

    @Test("session.created carries the session, its pages still empty")
    @LoopActor func sessionCreated() throws {
        let f = HostFixture()
        let session = try f.createSession { $0.label = "one" }
        let event = f.events(after: 0).first
        #expect(Self.keys(event) == ["type", "seq", "sessionId", "session"])
        let json = try #require(event?.json)
        #expect(json["type"] == "session.created")
        #expect(json["seq"] == 1)
        #expect(json["sessionId"] == .string(session.id.rawValue))
        #expect(json["session"]?["id"] == .string(session.id.rawValue))
        #expect(json["session"]?["label"] == "one")
        #expect(json["session"]?["popupMode"] == "stacked")
        #expect(json["session"]?["pages"] == [])
        #expect(json.serialized.hasPrefix(#"{"type":"session.created","seq":1,"sessionId":""#))
    }

    @Test("page.opened names the page and its opener; page.updated carries only the changes")
    @LoopActor func pageOpenedAndUpdated() throws {
        let f = HostFixture()
        let session = try f.createSession()
        let main = session.pages[0].id
        let mainOpened = try #require(f.events(after: 0).last?.json)
        #expect(mainOpened["type"] == "page.opened")
        #expect(mainOpened["openerId"] == .null)
        #expect(mainOpened["page"]?["role"] == "main")

        let mark = f.mark
        let popup = try f.openPopup(from: main)
        let events = f.events(after: mark)
        let opened = try #require(events.first?.json)
        #expect(Self.keys(events.first) == ["type", "seq", "sessionId", "pageId", "openerId", "page"])
        #expect(opened["seq"] == .number(Double(mark + 1)))
        #expect(opened["sessionId"] == .string(session.id.rawValue))
        #expect(opened["pageId"] == .string(popup.rawValue))
        #expect(opened["openerId"] == .string(main.rawValue))
        #expect(opened["page"]?["openerId"] == .string(main.rawValue))
        #expect(opened["page"]?["visible"] == true)

        let updated = try #require(events.last)
        #expect(Self.keys(updated) == ["type", "seq", "sessionId", "pageId", "changes"])
        #expect(updated.json["pageId"] == .string(main.rawValue))
        #expect(updated.json["changes"] == ["visible": false])
        #expect(updated.json.serialized ==
            #"{"type":"page.updated","seq":\#(mark + 2),"sessionId":"\#(session.id)","pageId":"\#(main)","changes":{"visible":false}}"#)
    }

    @Test("page.closed, dialog.closed and popup.blocked carry their reasons")
    @LoopActor func reasons() throws {
        let f = HostFixture()
        let session = try f.createSession { $0.maxPopups = 1 }
        let main = session.pages[0].id
        let popup = try f.openPopup(from: main)
        let dialog = try #require(f.reports.dialogRequested(on: popup, kind: .prompt, message: "?", defaultText: "d"))
        let mark = f.mark
        #expect(f.reports.popupRequested(by: main, url: "https://b.test/") == nil)
        try f.host.answerDialog(dialog, with: DialogAnswer(accept: true, text: "t"))
        f.reports.pageRequestedClose(popup)
        let events = f.events(after: mark)

        let blocked = try #require(events.first { $0.type == "popup.blocked" }?.json)
        #expect(blocked["pageId"] == .string(main.rawValue))
        #expect(blocked["url"] == "https://b.test/")
        #expect(blocked["reason"] == "limit")

        let answered = try #require(events.first { $0.type == "dialog.closed" }?.json)
        #expect(answered["dialogId"] == .string(dialog.rawValue))
        #expect(answered["pageId"] == .string(popup.rawValue))
        #expect(answered["answer"] == ["accept": true, "text": "t"])
        #expect(answered["by"] == "command")

        let closed = try #require(events.first { $0.type == "page.closed" })
        #expect(Self.keys(closed) == ["type", "seq", "sessionId", "pageId", "reason", "forced"])
        #expect(closed.json["reason"] == "script")
        #expect(closed.json["forced"] == false)
        #expect(closed.json["pageId"] == .string(popup.rawValue))
    }
}
