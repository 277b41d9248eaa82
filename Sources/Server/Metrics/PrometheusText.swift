import Foundation

/// Writes metrics in the Prometheus text format: `# HELP`, `# TYPE`, then one sample per line.
struct PrometheusText {
    private(set) var text = ""

    mutating func gauge(_ name: String, _ help: String, _ value: Double) {
        family(name, help, "gauge", [([:], value)])
    }

    mutating func gauge(_ name: String, _ help: String, _ samples: [([String: String], Double)]) {
        family(name, help, "gauge", samples)
    }

    mutating func counter(_ name: String, _ help: String, _ value: Double) {
        family(name, help, "counter", [([:], value)])
    }

    mutating func counter(_ name: String, _ help: String, _ samples: [([String: String], Double)]) {
        family(name, help, "counter", samples)
    }

    private mutating func family(_ name: String, _ help: String, _ type: String, _ samples: [([String: String], Double)]) {
        text += "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n"
        for (labels, value) in samples {
            text += name
            if !labels.isEmpty {
                text += "{" + labels.keys.sorted().map { "\($0)=\"\(Self.escape(labels[$0]!))\"" }.joined(separator: ",") + "}"
            }
            text += " " + Self.format(value) + "\n"
        }
    }

    static func escape(_ value: String) -> String {
        value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "\n", with: "\\n")
    }

    static func format(_ value: Double) -> String {
        value.rounded() == value && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}
