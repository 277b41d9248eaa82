import Foundation
import PagehostCore
import Testing

/// `pagehost load`: the real executable with its in-process server and the real engine, five sessions at a
/// time. Every run ends by itself; the report is read from `--json`.
@Suite
struct LoadCommandTests {
    /// Opens a popup and shows a confirm once loaded; the title says what the confirm returned.
    static let popupAndConfirmPage = """
        <!doctype html><title>load test</title>
        <script>
        addEventListener('load', () => setTimeout(() => {
          window.open('about:blank', 'popup');
          document.title = 'confirmed ' + confirm('Carry on?');
        }, 0));
        </script>
        """

    @Test func fiveSessionsOpenTheirPopupsAndHaveTheirDialogsAnswered() throws {
        let folder = try TemporaryFolder()
        let page = try folder.file("page.html", Self.popupAndConfirmPage)
        let run = try PagehostRun.run(["load", "--html", page, "--sessions", "5", "--concurrency", "2", "--json"])
        #expect(run.status == 0, "stderr: \(run.stderr)")
        let report = try run.json()
        #expect(report["sessions"]?["created"] == 5)
        #expect(report["sessions"]?["loaded"] == 5)
        #expect(report["sessions"]?["failed"] == 0)
        #expect(report["popups"]?["opened"] == 5)
        #expect(report["dialogs"]?["seen"] == 5)
        #expect(report["dialogs"]?["answered"] == 5)
        #expect(report["dialogs"]?["by"]?["command"] == 5)
        #expect(report["stream"]?["coalescedEvents"] != nil)
        #expect(report["stream"]?["missedEvents"] == 0)
        #expect(report["errors"] == .object([]))
        // Closing the sessions closed their popups with them.
        #expect(report["popups"]?["closed"]?["session"] == 5)
        #expect(report["loadMs"]?["count"] == 5)
        #expect((report["popups"]?["openMs"]?["p50"]?.doubleValue ?? 0) > 0)
        #expect((report["server"]?["peakResidentBytes"]?.intValue ?? 0) > 0)
        // pagehost, Xvfb, a network process and at least one web process.
        #expect((report["server"]?["peakProcessCount"]?.intValue ?? 0) >= 4)
    }

    @Test func sharedPacksSessionsIntoFewerWebProcessesThanPerSession() throws {
        let folder = try TemporaryFolder()
        let page = try folder.file("static.html", "<!doctype html><title>static</title><p>static</p>")
        func peakProcesses(_ model: String) throws -> Int {
            let run = try PagehostRun.run(["load", "--html", page, "--sessions", "4", "--concurrency", "1",
                                           "--process-model", model, "--json"])
            #expect(run.status == 0, "stderr: \(run.stderr)")
            let report = try run.json()
            #expect(report["sessions"]?["loaded"] == 4)
            return report["server"]?["peakProcessCount"]?.intValue ?? 0
        }
        let perSession = try peakProcesses("perSession")
        let shared = try peakProcesses("shared")
        // perSession: a web process per session; shared: all four in one (pagesPerProcess is 16).
        #expect(perSession - shared >= 3, "perSession \(perSession) processes, shared \(shared)")
    }

    /// Opens its popup as soon as its script runs, before it has loaded.
    static let popupAtOncePage = """
        <!doctype html><title>popup at once</title>
        <script>window.open('about:blank', 'popup');</script>
        """

    @Test func closePopupsClosesEveryPopupThroughTheAPI() throws {
        let folder = try TemporaryFolder()
        let page = try folder.file("page.html", Self.popupAtOncePage)
        let run = try PagehostRun.run(["load", "--html", page, "--sessions", "5", "--concurrency", "5",
                                       "--close-popups", "0", "--json"])
        #expect(run.status == 0, "stderr: \(run.stderr)")
        let report = try run.json()
        #expect(report["popups"]?["opened"] == 5)
        #expect(report["popups"]?["closed"]?["admin"] == 5)
        #expect(report["popups"]?["closed"]?["session"] == 0)
        #expect(report["stream"]?["missedEvents"] == 0)
    }

    @Test func sessionsWhosePageCannotLoadFailByKindAndExitWithOne() throws {
        let url = "http://127.0.0.1:\(try closedLoopbackPort())/"
        let run = try PagehostRun.run(["load", "--url", url, "--sessions", "5", "--concurrency", "5", "--json"])
        #expect(run.status == 1, "stderr: \(run.stderr)")
        let report = try run.json()
        #expect(report["sessions"]?["created"] == 5)
        #expect(report["sessions"]?["failed"] == 5)
        #expect(report["sessions"]?["loaded"] == 0)
        let errors = try #require(report["errors"]?.objectValue)
        // One kind, counted five times: the navigation failure and the engine's reason.
        #expect(errors.count == 1)
        let (kind, count) = try #require(errors.first)
        #expect(kind.hasPrefix("navigation failedProvisional: "))
        #expect(count == 5)
        #expect(report["stream"]?["missedEvents"] == 0)
    }

    @Test func theTableSaysWhatFailed() throws {
        let url = "http://127.0.0.1:\(try closedLoopbackPort())/"
        let run = try PagehostRun.run(["load", "--url", url, "--sessions", "1"])
        #expect(run.status == 1)
        #expect(run.stdout.contains("created 1, loaded 0, failed 1"))
        #expect(run.stdout.contains("navigation failedProvisional"))
    }

    @Test(arguments: [
        (["load"], "--url URL or --html FILE"),
        (["load", "--url", "http://127.0.0.1/", "--sessions", "0"], "--sessions"),
        (["load", "--url", "http://127.0.0.1/", "--concurrency", "x"], "--concurrency"),
        (["load", "--url", "http://127.0.0.1/", "--dialogs", "ask"], "--dialogs"),
        (["load", "--url", "http://127.0.0.1/", "--popup-mode", "sideways"], "--popup-mode"),
        (["load", "--url", "http://127.0.0.1/", "--server", "ftp://x"], "--server"),
        (["load", "--url", "http://127.0.0.1/", "--token", "t"], "--token goes with --server"),
        (["load", "--url", "http://127.0.0.1/", "--html", "/no/such/file"], "/no/such/file"),
        (["load", "--url", "http://127.0.0.1/", "--frobnicate"], "--frobnicate"),
    ])
    func badArgumentsExitWithTwoAndSayWhich(arguments: [String], named: String) throws {
        let run = try PagehostRun.run(arguments, timeout: 20)
        #expect(run.status == 2)
        #expect(run.stderr.contains(named))
        #expect(run.stdout.isEmpty)
    }

    @Test func aServerThatIsNotThereExitsWithOne() throws {
        let port = try closedLoopbackPort()
        let run = try PagehostRun.run(["load", "--url", "about:blank", "--server", "http://127.0.0.1:\(port)", "--token", "t"], timeout: 20)
        #expect(run.status == 1)
        #expect(run.stderr.contains("does not answer /api/health"))
    }
}
