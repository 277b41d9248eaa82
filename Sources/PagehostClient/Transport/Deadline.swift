#if canImport(Glibc)
import Glibc
#endif

/// A point in time on the monotonic clock, for timeouts that wall-clock changes cannot stretch.
public struct Deadline: Sendable, Comparable {
    /// Nanoseconds on CLOCK_MONOTONIC.
    public let nanoseconds: UInt64

    public init(nanoseconds: UInt64) { self.nanoseconds = nanoseconds }

    public static var now: Deadline { Deadline(nanoseconds: monotonicNanoseconds()) }

    /// `seconds` from now (negative or zero: already passed).
    public static func after(seconds: Double) -> Deadline {
        let now = monotonicNanoseconds()
        guard seconds > 0 else { return Deadline(nanoseconds: now) }
        return Deadline(nanoseconds: now &+ UInt64(min(seconds, 1e9) * 1e9))
    }

    /// A deadline that never comes (a day is long enough for anything here and stays in poll's range).
    public static var distant: Deadline { after(seconds: 86_400) }

    /// Milliseconds left for `poll`, at least 0.
    var pollMilliseconds: Int32 {
        let now = Self.monotonicNanoseconds()
        guard nanoseconds > now else { return 0 }
        return Int32(min((nanoseconds - now + 999_999) / 1_000_000, UInt64(Int32.max)))
    }

    public var hasPassed: Bool { Self.monotonicNanoseconds() >= nanoseconds }

    public static func < (lhs: Deadline, rhs: Deadline) -> Bool { lhs.nanoseconds < rhs.nanoseconds }

    public static func monotonicNanoseconds() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }
}
