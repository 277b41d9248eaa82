/// Samples of a Prometheus text exposition (`name{label="v",…} value` lines), for reading `/metrics`.
public struct PrometheusSamples: Sendable {
    public struct Sample: Sendable, Equatable {
        public var name: String
        public var labels: [String: String]
        public var value: Double
    }

    public private(set) var samples: [Sample] = []

    public init(text: String) {
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            if let sample = Self.parse(line) { samples.append(sample) }
        }
    }

    /// The value of the sample `name` whose labels include `labels`; the sum when several match.
    public func value(_ name: String, _ labels: [String: String] = [:]) -> Double? {
        let matching = samples.filter { sample in sample.name == name && labels.allSatisfy { sample.labels[$0.key] == $0.value } }
        return matching.isEmpty ? nil : matching.reduce(0) { $0 + $1.value }
    }

    /// Whether the exposition has any sample of `name`.
    public func has(_ name: String) -> Bool { samples.contains { $0.name == name } }

    private static func parse(_ line: Substring) -> Sample? {
        var labels: [String: String] = [:]
        let name: Substring
        var rest: Substring
        if let brace = line.firstIndex(of: "{") {
            name = line[..<brace]
            guard let close = line.lastIndex(of: "}") else { return nil }
            labels = parseLabels(line[line.index(after: brace)..<close])
            rest = line[line.index(after: close)...]
        } else {
            guard let space = line.firstIndex(of: " ") else { return nil }
            name = line[..<space]
            rest = line[space...]
        }
        rest = rest.drop(while: { $0 == " " })
        let valueText = rest.split(separator: " ").first.map(String.init) ?? ""
        let value: Double
        switch valueText {
        case "+Inf": value = .infinity
        case "-Inf": value = -.infinity
        case "NaN": value = .nan
        default:
            guard let v = Double(valueText) else { return nil }
            value = v
        }
        return Sample(name: String(name), labels: labels, value: value)
    }

    private static func parseLabels(_ text: Substring) -> [String: String] {
        var labels: [String: String] = [:]
        var index = text.startIndex
        while index < text.endIndex {
            guard let eq = text[index...].firstIndex(of: "=") else { break }
            let key = text[index..<eq].trimmingSpacesAndCommas()
            var i = text.index(after: eq)
            guard i < text.endIndex, text[i] == "\"" else { break }
            i = text.index(after: i)
            var value = ""
            while i < text.endIndex, text[i] != "\"" {
                if text[i] == "\\", text.index(after: i) < text.endIndex {
                    i = text.index(after: i)
                    value.append(text[i] == "n" ? "\n" : text[i])
                } else {
                    value.append(text[i])
                }
                i = text.index(after: i)
            }
            labels[key] = value
            index = i < text.endIndex ? text.index(after: i) : i
        }
        return labels
    }
}

private extension Substring {
    func trimmingSpacesAndCommas() -> String {
        String(drop(while: { $0 == " " || $0 == "," }).reversed().drop(while: { $0 == " " }).reversed())
    }
}
