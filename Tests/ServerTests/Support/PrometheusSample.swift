import Foundation

/// Reads the Prometheus text format strictly enough for tests: every line is a comment or `name{labels} value`.
enum PrometheusSample {
    struct Sample: Equatable {
        let name: String
        let labels: [String: String]
        let value: Double
    }

    /// Every sample, or nil when a line does not parse.
    static func parse(_ text: String) -> [Sample]? {
        var samples: [Sample] = []
        for line in text.split(separator: "\n") {
            if line.hasPrefix("# HELP ") || line.hasPrefix("# TYPE ") { continue }
            guard !line.hasPrefix("#") else { return nil }
            guard let space = line.lastIndex(of: " "), let value = Double(line[line.index(after: space)...]) else { return nil }
            let series = line[..<space]
            var name = String(series)
            var labels: [String: String] = [:]
            if let brace = series.firstIndex(of: "{") {
                guard series.hasSuffix("}") else { return nil }
                name = String(series[..<brace])
                let inner = series[series.index(after: brace)..<series.index(before: series.endIndex)]
                for pair in inner.split(separator: ",") {
                    let parts = pair.split(separator: "=", maxSplits: 1)
                    guard parts.count == 2, parts[1].hasPrefix("\""), parts[1].hasSuffix("\"") else { return nil }
                    labels[String(parts[0])] = String(parts[1].dropFirst().dropLast())
                }
            }
            guard name.range(of: "^[a-zA-Z_:][a-zA-Z0-9_:]*$", options: .regularExpression) != nil else { return nil }
            samples.append(Sample(name: name, labels: labels, value: value))
        }
        return samples
    }

    static func value(of name: String, labels: [String: String] = [:], in text: String) -> Double? {
        parse(text)?.first { $0.name == name && $0.labels == labels }?.value
    }
}
