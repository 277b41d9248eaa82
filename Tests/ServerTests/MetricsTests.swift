import Foundation
import PagehostCore
import Testing

@Suite("Metrics with real pages")
struct MetricsTests {
    static func metrics(_ fixture: ServerFixture) async throws -> (String, [PrometheusSample.Sample]) {
        let response = try await fixture.http.get("/metrics")
        #expect(response.status == 200)
        #expect(response.headers["content-type"]?.hasPrefix("text/plain; version=0.0.4") == true)
        let samples = try #require(PrometheusSample.parse(response.text), "not Prometheus text:\n\(response.text)")
        return (response.text, samples)
    }

    @Test func metricsParseAndCountPopupsOpeningAndClosing() async throws {
        let fixture = try await startServer()
        let stream = try await fixture.stream()
        _ = try await stream.receiveJSON()
        let (before, _) = try await Self.metrics(fixture)
        for name in ["pagehost_sessions", "pagehost_pages", "pagehost_popups_opened_total", "pagehost_popups_closed_total",
                     "pagehost_dialogs_pending", "pagehost_dialogs_answered_total", "pagehost_stream_clients",
                     "pagehost_events_emitted_total", "pagehost_events_dropped_total", "pagehost_http_requests_total",
                     "pagehost_resident_memory_bytes"] {
            #expect(before.contains("# TYPE \(name) "), "\(name) missing")
        }
        #expect((PrometheusSample.value(of: "pagehost_resident_memory_bytes", in: before) ?? 0) > 1_000_000)
        #expect(PrometheusSample.value(of: "pagehost_stream_clients", in: before) == 1)
        let opened0 = PrometheusSample.value(of: "pagehost_popups_opened_total", in: before) ?? -1

        let created = try JSONParser.parse(try await fixture.http.post("/api/sessions", json: JSONValue.object([("html", .string(TestPages.opener(popups: 2)))]).serialized).body)
        let sid = try #require(created["id"]?.stringValue)
        let messages = try await stream.receive(collectingUntil: { seen in
            seen.filter { $0.isEvent("page.opened") && $0["page"]?["role"] == "popup" }.count == 2
        }, timeout: 30)
        let popup = try #require(messages.last { $0.isEvent("page.opened") }?["pageId"]?.stringValue)
        #expect(try await fixture.http.post("/api/sessions/\(sid)/pages/\(popup)/close", json: "").status == 200)
        _ = try await stream.receive(until: { $0.isEvent("page.closed", page: popup) })

        let (after, _) = try await Self.metrics(fixture)
        #expect(PrometheusSample.value(of: "pagehost_popups_opened_total", in: after) == opened0 + 2)
        #expect(PrometheusSample.value(of: "pagehost_popups_closed_total", labels: ["reason": "admin"], in: after) == 1)
        #expect(PrometheusSample.value(of: "pagehost_pages", labels: ["role": "popup"], in: after) == 1)
        #expect(PrometheusSample.value(of: "pagehost_pages", labels: ["role": "main"], in: after) == 1)
        #expect(PrometheusSample.value(of: "pagehost_sessions", in: after) == 1)
        #expect((PrometheusSample.value(of: "pagehost_http_requests_total", labels: ["status": "200"], in: after) ?? 0) >= 1)
        #expect((PrometheusSample.value(of: "pagehost_http_requests_total", labels: ["status": "201"], in: after) ?? 0) >= 1)
        #expect((PrometheusSample.value(of: "pagehost_events_emitted_total", in: after) ?? 0)
                > (PrometheusSample.value(of: "pagehost_events_emitted_total", in: before) ?? 0))

        // Closing the session closes the other popup with reason session.
        #expect(try await fixture.http.delete("/api/sessions/\(sid)").status == 204)
        _ = try await stream.receive(until: { $0.type == "session.closed" })
        let (closed, _) = try await Self.metrics(fixture)
        #expect(PrometheusSample.value(of: "pagehost_popups_closed_total", labels: ["reason": "session"], in: closed) == 1)
        #expect(PrometheusSample.value(of: "pagehost_pages", labels: ["role": "popup"], in: closed) == 0)
        await stream.close()
        await fixture.stop()
    }

    @Test func metricsShowTheProcessTreeByKindWithItsMemory() async throws {
        let fixture = try await startServer()
        let stream = try await fixture.stream()
        _ = try await stream.receiveJSON()
        let created = try JSONParser.parse(try await fixture.http.post("/api/sessions", json: #"{"html":"<title>tree</title>"}"#).body)
        let sid = try #require(created["id"]?.stringValue)
        _ = try await stream.receive(until: { $0.updates("title", to: "tree") })
        // The first read of this server's metrics: nothing cached yet, the session's web process is up.
        let (text, samples) = try await Self.metrics(fixture)
        for name in ["pagehost_processes", "pagehost_process_resident_bytes", "pagehost_process_pss_bytes"] {
            #expect(text.contains("# TYPE \(name) gauge"), "\(name) missing")
        }
        func value(_ name: String, _ kind: String) -> Double {
            PrometheusSample.value(of: name, labels: ["kind": kind], in: text) ?? -1
        }
        #expect(value("pagehost_processes", "pagehost") == 1)
        #expect(value("pagehost_processes", "web") >= 1)
        #expect(value("pagehost_processes", "network") >= 1)
        #expect(value("pagehost_process_pss_bytes", "web") > 1_000_000)
        #expect(value("pagehost_process_pss_bytes", "pagehost") > 1_000_000)
        #expect(value("pagehost_process_resident_bytes", "web") >= value("pagehost_process_pss_bytes", "web"),
                "resident counts shared pages in full, PSS splits them")
        #expect(samples.contains { $0.name == "pagehost_processes" && $0.labels["kind"] == "display" })
        #expect(try await fixture.http.delete("/api/sessions/\(sid)").status == 204)
        await stream.close()
        await fixture.stop()
    }
}
