import Foundation
import PagehostClient
import Synchronization

enum BenchCommand {
    static let usage = "usage: pagehost-bench stream --server URL --token T --clients N --seconds S [--warmup S]\n"

    static func run(_ arguments: [String]) -> Int32 {
        guard arguments.first == "stream" else {
            FileHandle.standardError.write(Data(usage.utf8))
            return 2
        }
        var values: [String: String] = [:]
        var index = 1
        while index + 1 < arguments.count {
            values[arguments[index]] = arguments[index + 1]
            index += 2
        }
        guard index == arguments.count, let server = values["--server"].flatMap(ServerAddress.init(url:)),
              let clients = values["--clients"].flatMap(Int.init), clients > 0,
              let seconds = values["--seconds"].flatMap(Double.init), seconds > 0 else {
            FileHandle.standardError.write(Data(usage.utf8))
            return 2
        }
        let warmup = values["--warmup"].flatMap(Double.init) ?? 1
        let api = PagehostAPI(address: server, token: values["--token"])
        let result = StreamBench(api: api, clients: clients, seconds: seconds, warmup: warmup).run()
        print(result)
        return 0
    }
}

/// N stream clients for a fixed time: messages and bytes received per second, and title latencies.
struct StreamBench {
    let api: PagehostAPI
    let clients: Int
    let seconds: Double
    let warmup: Double

    final class ClientResult: @unchecked Sendable {
        var messages = 0
        var bytes = 0
        var latencies: [Double] = []
        var error: String?
    }

    func run() -> String {
        let results = (0..<clients).map { _ in ClientResult() }
        let group = DispatchGroup()
        let cpuBefore = Self.processCPUSeconds()
        let start = Deadline.monotonicNanoseconds()
        let measureFrom = start + UInt64(warmup * 1e9)
        let end = Deadline(nanoseconds: measureFrom + UInt64(seconds * 1e9))
        let connected = Atomic<Int>(0)
        for i in 0..<clients {
            group.enter()
            let result = results[i]
            let api = self.api
            let thread = Thread {
                defer { group.leave() }
                do {
                    let stream = try api.openStream(timeout: 30)
                    connected.add(1, ordering: .relaxed)
                    defer { stream.close() }
                    while let message = try stream.receive(deadline: end) {
                        let now = Deadline.monotonicNanoseconds()
                        guard now >= measureFrom, case .text(let text) = message else { continue }
                        result.messages += 1
                        result.bytes += text.utf8.count
                        if let clock = Self.pageClock(in: text) {
                            result.latencies.append(Self.realtimeMilliseconds() - clock)
                        }
                    }
                } catch {
                    result.error = "\(error)"
                }
            }
            thread.stackSize = 256 << 10
            thread.start()
        }
        group.wait()
        let cpu = Self.processCPUSeconds() - cpuBefore
        let latencies = results.flatMap(\.latencies).sorted()
        func pct(_ p: Double) -> Double {
            guard !latencies.isEmpty else { return .nan }
            return latencies[min(latencies.count - 1, max(0, Int((p / 100 * Double(latencies.count)).rounded(.up)) - 1))]
        }
        let messages = results.reduce(0) { $0 + $1.messages }
        let bytes = results.reduce(0) { $0 + $1.bytes }
        let errors = results.compactMap(\.error)
        func n(_ v: Double) -> String { v.isFinite ? String(format: "%.3f", v) : "null" }
        let errorList = Set(errors).sorted().map { "\"" + $0.replacingOccurrences(of: "\"", with: "'") + "\"" }.joined(separator: ",")
        return """
            {"clients":\(clients),"connected":\(connected.load(ordering: .relaxed)),"seconds":\(n(seconds)),\
            "messages":\(messages),"messagesPerSecond":\(n(Double(messages) / seconds)),"bytes":\(bytes),\
            "latencyMs":{"count":\(latencies.count),"p50":\(n(pct(50))),"p90":\(n(pct(90))),"p99":\(n(pct(99))),"max":\(n(latencies.last ?? .nan))},\
            "clientCPUSeconds":\(n(cpu)),"errors":[\(errorList)]}
            """
    }

    /// The number after `"title":"t=` in a message, if any.
    static func pageClock(in text: String) -> Double? {
        guard let range = text.range(of: "\"title\":\"t=") else { return nil }
        let digits = text[range.upperBound...].prefix { $0.isNumber || $0 == "." }
        return Double(digits)
    }

    static func realtimeMilliseconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Double(time.tv_sec) * 1000 + Double(time.tv_nsec) / 1e6
    }

    static func processCPUSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
            + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
    }
}
