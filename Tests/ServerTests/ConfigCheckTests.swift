import Foundation
import PagehostCore
import Server
import Testing

/// The config file's toolbox keys (customSchemes, navigationRules, engine, sessionDefaults, host limits) and
/// `pagehost config check`: every key read, every malformed config refused naming the key.
@Suite("Config file and config check")
struct ConfigCheckTests {
    /// Writes `text` as a config file in a fresh folder (with a `site` folder beside it) and returns its path.
    static func write(_ text: String) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pagehost-config-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("site"), withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("pagehost.json")
        try Data(text.utf8).write(to: file)
        return file.path
    }

    /// At least ten malformed configs, each with the key its message must name.
    static let malformed: [(String, String)] = [
        (#"{"prot": 8080}"#, "config.prot"),
        (#"{"port": "8080"}"#, "config.port"),
        (#"{"host": "pagehost.example"}"#, "config field host"),
        (#"{"limits": {"sesions": 3}}"#, "limits.sesions"),
        (#"{"limits": {"maxTextLength": "long"}}"#, "limits.maxTextLength"),
        (#"{"limits": {"dialogWindow": -1}}"#, "limits.dialogWindow"),
        (#"{"limits": {"refusalReportInterval": "1s"}}"#, "limits.refusalReportInterval"),
        (#"{"limits": {"closedSessionLimit": 1.5}}"#, "limits.closedSessionLimit"),
        (#"{"limits": {"dialogLimit": 0}}"#, "limits.dialogLimit"),
        (#"{"customSchemes": {"http": "site"}}"#, "config.customSchemes.http"),
        (#"{"customSchemes": {"lakes": "no-such-folder"}}"#, "config.customSchemes.lakes"),
        (#"{"customSchemes": {"la kes": "site"}}"#, "config.customSchemes.la kes"),
        (#"{"customSchemes": {"lakes": 1}}"#, "config.customSchemes.lakes"),
        (#"{"customSchemes": ["lakes"]}"#, "config.customSchemes"),
        (#"{"engine": {"pagesPerProcess": 0}}"#, "config.engine.pagesPerProcess"),
        (#"{"engine": {"navigationTimeout": "30"}}"#, "config.engine.navigationTimeout"),
        (#"{"engine": {"javascriptCollectionThreshold": 0}}"#, "config.engine.javascriptCollectionThreshold"),
        (#"{"engine": {"javascriptCollectionThreshold": 4097}}"#, "config.engine.javascriptCollectionThreshold"),
        (#"{"engine": {"javascriptCollectionThreshold": "4M"}}"#, "config.engine.javascriptCollectionThreshold"),
        (#"{"engine": {"workers": 2}}"#, "config.engine.workers"),
        (#"{"navigationRules": {"rules": [{"host": "x.test"}]}}"#, "config.navigationRules.rules[0].action"),
        (#"{"navigationRules": {"default": "deny"}}"#, "config.navigationRules.default"),
        (#"{"navigationRules": {"default": "block"}, "sessionDefaults": {"navigationRules": {}}}"#, "config.navigationRules"),
        (#"{"sessionDefaults": {"processModel": "pool"}}"#, "sessionDefaults.processModel"),
        (#"{"sessionDefaults": {"idleTimeout": "5m"}}"#, "sessionDefaults.idleTimeout"),
        (#"{"sessionDefaults": {"onCrash": true}}"#, "sessionDefaults.onCrash"),
        (#"{"sessionDefaults": {"url": "https://example.test"}}"#, "sessionDefaults.url"),
        (#"{"sessionDefaults": {"maxCrashReloads": 1000}}"#, "sessionDefaults.maxCrashReloads"),
    ]

    @Test func everyMalformedConfigIsRefusedNamingTheKey() throws {
        #expect(Self.malformed.count >= 10)
        for (text, key) in Self.malformed {
            let file = try Self.write(text)
            do {
                _ = try ServerConfiguration.load(file: file)
                Issue.record("\(text) was accepted")
            } catch {
                #expect(error.message.contains(key), "\(text): \(error.message)")
            }
        }
    }

    @Test func everyToolboxKeyIsRead() throws {
        let file = try Self.write("""
            {
              "customSchemes": {"lakes": "site", "Docs": "/tmp"},
              "navigationRules": {"rules": [{"host": "*.example.test", "action": "block"}], "default": "allow"},
              "engine": {"pagesPerProcess": 8, "navigationTimeout": 12.5, "javascriptCollectionThreshold": 16},
              "limits": {"sessions": 9, "maxTextLength": 1000, "refusalReportInterval": 2, "dialogLimit": 4,
                         "dialogWindow": 5, "closedSessionRetention": 60, "closedSessionLimit": 7, "closedSessionEvents": 100,
                         "closeGracePeriod": 2.5},
              "sessionDefaults": {"promptText": "p", "maxPopups": 2, "processModel": "shared", "onCrash": "close",
                                  "maxCrashReloads": 1, "idleTimeout": 30, "maxLifetime": 90, "dialogTimeout": 1.5}
            }
            """)
        let config = try ServerConfiguration.load(file: file)
        let folder = URL(fileURLWithPath: file).deletingLastPathComponent().appendingPathComponent("site").standardizedFileURL.path
        #expect(config.customSchemes.map(\.name) == ["lakes", "docs"])
        #expect(config.customSchemes.first?.folder == folder)
        #expect(config.sessionDefaults.navigationRules.rules == [NavigationRule(host: "*.example.test", action: .block)])
        #expect(config.pagesPerProcess == 8)
        #expect(config.navigationTimeout == .milliseconds(12_500))
        #expect(config.javascriptCollectionThreshold == 16)
        let limits = config.hostLimits
        #expect(limits.maxSessions == 9)
        #expect(limits.maxTextLength == 1000)
        #expect(limits.refusalReportInterval == .seconds(2))
        #expect(limits.dialogLimit == 4)
        #expect(limits.dialogWindow == .seconds(5))
        #expect(limits.closedSessionRetention == .seconds(60))
        #expect(limits.closedSessionLimit == 7)
        #expect(limits.closedSessionEvents == 100)
        #expect(limits.closeGracePeriod == .milliseconds(2500))
        let defaults = config.sessionDefaults
        #expect(defaults.promptText == "p")
        #expect(defaults.maxPopups == 2)
        #expect(defaults.processModel == .shared)
        #expect(defaults.onCrash == .close)
        #expect(defaults.maxCrashReloads == 1)
        #expect(defaults.idleTimeout == .seconds(30))
        #expect(defaults.maxLifetime == .seconds(90))
        #expect(defaults.dialogTimeout == .milliseconds(1500))
    }

    /// The shipped config file is valid, and documents every key the loader knows.
    @Test func theShippedConfigIsValid() throws {
        _ = try ServerConfiguration.load(file: ServerFixture.root + "/config/pagehost.json")
    }

    /// The built binary: `ok` and 0 for a good file, 2 and the key for a bad one, 2 for a missing file.
    @Test func configCheckCommand() async throws {
        let good = try await Self.runPagehost(["config", "check", ServerFixture.root + "/config/pagehost.json"])
        #expect(good.status == 0, "\(good.stderr)")
        #expect(good.stdout == "ok\n")
        for (text, key) in Self.malformed.prefix(12) {
            let bad = try await Self.runPagehost(["config", "check", try Self.write(text)])
            #expect(bad.status == 2)
            #expect(bad.stderr.contains(key), "\(text): \(bad.stderr)")
            #expect(bad.stdout.isEmpty)
        }
        let missing = try await Self.runPagehost(["config", "check", "/nonexistent/pagehost.json"])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("/nonexistent/pagehost.json"))
        let usage = try await Self.runPagehost(["config", "lint"])
        #expect(usage.status == 2)
    }

    struct Output: Sendable {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    /// Runs the built `pagehost` (next to the test bundle) to its end, waiting off the cooperative pool.
    static func runPagehost(_ arguments: [String]) async throws -> Output {
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("pagehost")
        return try await offPool {
            let process = Process()
            process.executableURL = executable
            process.arguments = arguments
            let out = Pipe(), err = Pipe()
            process.standardOutput = out
            process.standardError = err
            try process.run()
            // Config check prints little: read both pipes to their end, then reap.
            let stdout = out.fileHandleForReading.readDataToEndOfFile()
            let stderr = err.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return Output(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                          stderr: String(decoding: stderr, as: UTF8.self))
        }
    }
}
