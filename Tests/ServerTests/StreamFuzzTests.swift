import Foundation
import MainLoop
import PagehostCore
import Testing

/// Bad input on the stream: every kind of malformed message or frame gets an error message or a clean close,
/// the server stays up, and a client connected all along receives every event, in order, without a `seq` gap.
@Suite("Stream fuzzing")
struct StreamFuzzTests {
    static let limit = 16 << 10
    static let clientLimit = 6

    /// One input and the reactions allowed for it.
    struct Case: Sendable {
        let name: String
        let input: @Sendable (RawWebSocket) async -> Void
        /// Whether the connection must stay usable afterwards (an error message, not a close).
        let expect: Expect
    }

    enum Expect: Sendable {
        /// An error message with this code; the connection still answers commands after it.
        case error(String)
        /// A close, with one of these status codes (nil: a close without code, or the connection ending).
        case close([Int?])
        /// Either an error message or a close.
        case errorOrClose
        /// The command's answer, or a close.
        case answerOrClose
    }

    static var cases: [Case] {
        let command = Array(#"{"id":1,"op":"listSessions"}"#.utf8)
        return [
            Case(name: "malformed JSON", input: { await $0.send("{\"id\":1,\"op\":") }, expect: .error("bad_request")),
            Case(name: "not JSON at all", input: { await $0.send("hello") }, expect: .error("bad_request")),
            Case(name: "an empty message", input: { await $0.send("") }, expect: .error("bad_request")),
            Case(name: "JSON that is not an object", input: { await $0.send("[1,2,3]") }, expect: .error("bad_request")),
            Case(name: "no id", input: { await $0.send(#"{"op":"listSessions"}"#) }, expect: .error("bad_request")),
            Case(name: "an unknown op", input: { await $0.send(#"{"id":2,"op":"selfDestruct"}"#) }, expect: .error("bad_request")),
            Case(name: "an op of the wrong type", input: { await $0.send(#"{"id":2,"op":7}"#) }, expect: .error("bad_request")),
            Case(name: "unknown members", input: { await $0.send(#"{"id":2,"op":"listSessions","x":1}"#) }, expect: .error("bad_request")),
            Case(name: "a bad session id", input: { await $0.send(#"{"id":2,"op":"getEvents","sessionId":"../../etc"}"#) }, expect: .error("bad_request")),
            Case(name: "nesting past the bound", input: { await $0.send(String(repeating: "[", count: 5000)) }, expect: .error("bad_request")),
            Case(name: "invalid UTF-8 in a text frame", input: { await $0.send([0x7B, 0xFF, 0xFE, 0x7D]) }, expect: .errorOrClose),
            Case(name: "a frame over the limit", input: { await $0.send(Array(repeating: 0x20, count: limit + 100)) },
                 expect: .close([1009])),
            Case(name: "fragments over the limit together", input: { socket in
                await socket.send(fin: false, Array(repeating: 0x20, count: limit / 2 + 10))
                await socket.send(fin: true, opcode: 0x0, Array(repeating: 0x20, count: limit / 2 + 10))
            }, expect: .close([1009])),
            Case(name: "a binary frame", input: { await $0.send(opcode: 0x2, command) }, expect: .close([1003])),
            Case(name: "a continuation frame that continues nothing", input: { await $0.send(opcode: 0x0, command) },
                 expect: .close([1002, nil])),
            Case(name: "a reserved opcode", input: { await $0.send(opcode: 0x3, command) }, expect: .close([1002, nil])),
            // RFC 6455 says close; libwebsockets reads it as the command it is. Either is fine here.
            Case(name: "an unmasked frame", input: { await $0.send(command, masked: false) }, expect: .answerOrClose),
            Case(name: "a fragmented control frame", input: { await $0.send(fin: false, opcode: 0x9, [1, 2]) }, expect: .close([1002, nil])),
            Case(name: "frames after close", input: { socket in
                await socket.send(opcode: 0x8, [0x03, 0xE8])
                await socket.send(command)
                await socket.send(opcode: 0x2, command)
            }, expect: .close([1000, nil])),
        ]
    }

    @Test func badFramesAndMessagesGetAnErrorOrACloseAndOtherClientsLoseNothing() async throws {
        let fixture = try await startServer(.fake) {
            $0.limits.requestBodyBytes = Self.limit
            $0.limits.streamClients = Self.clientLimit
        }
        defer { Task { @LoopActor in fixture.stop() } }
        let http = fixture.http

        // The bystander: connected all along, reading everything until the last session of the run appears.
        let bystander = try await fixture.stream()
        let snapshot = try await bystander.receiveJSON()
        let firstSeq = try #require(snapshot.seq) + 1
        let collected = Task {
            try await bystander.receive(until: { $0.type == "session.created" && $0["session"]?["label"] == "the end" }, timeout: 120)
        }
        /// Events for the bystander between cases: a session opens, gets a popup, closes.
        func churn(_ n: Int) async throws {
            let created = try JSONParser.parse(try await http.post("/api/sessions", json: #"{"html":"x","label":"churn \#(n)"}"#).body)
            let sid = try #require(created["id"]?.stringValue)
            let pid = try #require(created["pages"]?.arrayValue?.first?["id"]?.stringValue)
            _ = await Self.popup(fixture, from: pid)
            #expect(try await http.delete("/api/sessions/\(sid)").status == 204)
        }

        for (n, fuzzCase) in Self.cases.enumerated() {
            let client = try await fixture.stream()
            let raw = RawWebSocket(client: client)
            #expect(try await raw.reaction().isSnapshot, "\(fuzzCase.name): no snapshot first")
            try await churn(n)
            await fuzzCase.input(raw)
            var reaction = try await raw.reaction()
            while case .message(let json) = reaction, json["type"]?.stringValue?.contains(".") == true {
                reaction = try await raw.reaction()  // the churn's events
            }
            switch fuzzCase.expect {
            case .error(let code):
                #expect(reaction.isError(code), "\(fuzzCase.name): \(reaction)")
                // Still usable.
                await raw.send(#"{"id":"after","op":"listSessions"}"#)
                var next = try await raw.reaction()
                while case .message(let json) = next, json["id"] != "after" { next = try await raw.reaction() }
                #expect(next.isResult, "\(fuzzCase.name): after the error: \(next)")
            case .close(let codes):
                guard case .closed(let code) = reaction else {
                    Issue.record("\(fuzzCase.name): expected a close, got \(reaction)")
                    continue
                }
                #expect(codes.contains(code), "\(fuzzCase.name): closed with \(code.map(String.init) ?? "no code")")
            case .errorOrClose:
                #expect(reaction.isError("bad_request") || reaction.isClose, "\(fuzzCase.name): \(reaction)")
            case .answerOrClose:
                #expect(reaction.isResult || reaction.isClose, "\(fuzzCase.name): \(reaction)")
            }
            await client.close()
        }

        // A client that dies mid-frame: a header for 1000 bytes, 10 of them, then the socket closes.
        do {
            let client = try await fixture.stream()
            let raw = RawWebSocket(client: client)
            _ = try await raw.reaction()
            await raw.write(Array(RawWebSocket.frame(opcode: 0x1, payload: Array(repeating: 0x20, count: 1000)).prefix(24)))
            shutdown(client.socket.fd, Int32(SHUT_RDWR))
        }
        try await churn(100)

        // Many connections at once past the limit: the bystander holds one place, so limit-1 get in and the rest
        // are refused with 429 (limit_exceeded) at the handshake.
        let attempts = await withTaskGroup(of: Result<WebSocketTestClient, any Error>.self) { group in
            for _ in 0..<(Self.clientLimit + 6) {
                group.addTask {
                    do { return .success(try await fixture.stream()) } catch { return .failure(error) }
                }
            }
            var results: [Result<WebSocketTestClient, any Error>] = []
            for await result in group { results.append(result) }
            return results
        }
        let admitted = attempts.compactMap { try? $0.get() }
        let refusals = attempts.compactMap { result -> WebSocketTestClient.Refused? in
            if case .failure(let error) = result { return error as? WebSocketTestClient.Refused }
            return nil
        }
        // Clients of earlier cases may still be leaving, so at most limit-1 get in; every other one is a 429.
        #expect(admitted.count <= Self.clientLimit - 1 && !admitted.isEmpty, "\(admitted.count) admitted")
        #expect(refusals.count == attempts.count - admitted.count, "\(attempts)")
        #expect(refusals.allSatisfy { $0.status == 429 && $0.body.contains("limit_exceeded") }, "\(refusals)")
        try await churn(101)
        for client in admitted { await client.close() }
        // Once they are gone, new clients get in again.
        let deadline = Date().addingTimeInterval(30)
        var again: WebSocketTestClient?
        while again == nil, Date() < deadline {
            again = try? await fixture.stream()
            if again == nil { try await Task.sleep(for: .milliseconds(50)) }
        }
        let late = try #require(again, "no client got in after the others left")
        #expect(try await late.receiveJSON().type == "snapshot")
        await late.close()

        // The server is up, and the bystander got every event of the run in order, without a gap.
        #expect(try await http.get("/api/health").status == 200)
        _ = try await http.post("/api/sessions", json: #"{"html":"x","label":"the end"}"#)
        let events = try await collected.value
        let seqs = events.compactMap(\.seq)
        #expect(seqs == Array(firstSeq..<(firstSeq + seqs.count)), "gap or disorder in \(seqs)")
        #expect(events.allSatisfy { $0.type != "snapshot" && $0["coalesced"] == nil })
        #expect(seqs.count > 3 * Self.cases.count, "only \(seqs.count) events")
        let lastSeq = await fixture.host.events.lastSeq
        #expect(UInt64(seqs.last ?? 0) <= lastSeq)
        await bystander.close()
    }

    @LoopActor
    static func popup(_ fixture: ServerFixture, from opener: String) -> PageID? {
        fixture.fake?.openPopup(from: PageID(opener), url: "about:blank")
    }
}

extension RawWebSocket.Reaction {
    var isSnapshot: Bool { if case .message(let json) = self { return json.type == "snapshot" }; return false }
    var isResult: Bool { if case .message(let json) = self { return json.type == "result" }; return false }
    var isClose: Bool { if case .closed = self { return true }; return false }
    func isError(_ code: String) -> Bool {
        if case .message(let json) = self { return json.type == "error" && json["error"]?["code"]?.stringValue == code }
        return false
    }
}
