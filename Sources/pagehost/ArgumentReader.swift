import Foundation
import PagehostCore

/// Reads a command line one argument at a time, and the values of its flags, with errors (`UsageError`) that
/// name the flag and the bad value. Shared by the commands' option parsers so they say the same things the
/// same way.
struct ArgumentReader {
    private let arguments: [String]
    private var index = -1

    init(_ arguments: [String]) {
        self.arguments = arguments
    }

    /// The next argument, or nil after the last.
    mutating func next() -> String? {
        index += 1
        return index < arguments.count ? arguments[index] : nil
    }

    /// The value that follows `flag`.
    mutating func value(_ flag: String) throws -> String {
        index += 1
        guard index < arguments.count else { throw UsageError("\(flag) needs a value") }
        return arguments[index]
    }

    /// A whole number in `range`.
    mutating func count(_ flag: String, _ range: ClosedRange<Int>) throws -> Int {
        let text = try value(flag)
        guard let n = Int(text), range.contains(n) else {
            let bounds = range.upperBound == Int.max ? "\(range.lowerBound) or more" : "from \(range.lowerBound) to \(range.upperBound)"
            throw UsageError("\(flag) must be a whole number \(bounds), not '\(text)'")
        }
        return n
    }

    /// A number of seconds, over 0 (or 0 too), at most `atMost`.
    mutating func seconds(_ flag: String, allowZero: Bool = false, atMost: Double = 86_400) throws -> Double {
        let text = try value(flag)
        guard let n = Double(text), n.isFinite, allowZero ? n >= 0 : n > 0, n <= atMost else {
            let most = atMost.isFinite ? ", at most \(Int(atMost))" : ""
            throw UsageError("\(flag) must be a number of seconds\(allowZero ? "" : " over 0")\(most), not '\(text)'")
        }
        return n
    }

    /// One of a type's cases (or of `allowed`), by its raw value.
    mutating func choice<T: RawRepresentable & CaseIterable>(_ flag: String, _ type: T.Type, allowed: [T]? = nil) throws -> T
    where T.RawValue == String {
        let text = try value(flag)
        let cases = allowed ?? Array(T.allCases)
        guard let parsed = T(rawValue: text), cases.contains(where: { $0.rawValue == parsed.rawValue }) else {
            throw UsageError("\(flag) must be one of \(cases.map(\.rawValue).joined(separator: ", ")), not '\(text)'")
        }
        return parsed
    }

    /// A page size, `WIDTHxHEIGHT`.
    mutating func viewport(_ flag: String) throws -> Viewport {
        let text = try value(flag)
        let parts = text.lowercased().split(separator: "x")
        let sides = Viewport.allowedSides
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]), sides.contains(width), sides.contains(height) else {
            throw UsageError("\(flag) must be WIDTHxHEIGHT with sides from \(sides.lowerBound) to \(sides.upperBound), not '\(text)'")
        }
        return Viewport(width: width, height: height)
    }

    /// Parses a command's options for `run`: the options to run with, or the exit status when there is
    /// nothing to run (`--help` printed the usage: 0; a bad argument printed its error and the usage: 2).
    static func options<Options>(of command: String, usage: String, _ parse: () throws -> Options?) -> Result<Options, ExitStatus> {
        do {
            guard let options = try parse() else {
                print(usage, terminator: "")
                return .failure(ExitStatus(code: 0))
            }
            return .success(options)
        } catch let error as UsageError {
            FileHandle.standardError.write(Data("pagehost \(command): \(error.message)\n\n\(usage)".utf8))
            return .failure(ExitStatus(code: 2))
        } catch {
            return .failure(ExitStatus(code: 2))
        }
    }

    /// How a command ends without running.
    struct ExitStatus: Error {
        let code: Int32
    }
}
