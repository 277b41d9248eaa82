/// A session's id, `s1`, `s2`, … in the order sessions were created in this process.
public struct SessionID: Hashable, Sendable, CustomStringConvertible, Comparable {
    public let rawValue: String
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }
    public static func < (a: SessionID, b: SessionID) -> Bool { a.rawValue.count == b.rawValue.count ? a.rawValue < b.rawValue : a.rawValue.count < b.rawValue.count }
}

/// A page's id, `p1`, `p2`, … unique across sessions.
public struct PageID: Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }
}

/// A JavaScript dialog's id, `d1`, `d2`, … unique across sessions.
public struct DialogID: Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }
}

/// Hands out the ids above. One per host, so ids are unique in a process.
struct IDGenerator {
    private var nextSession = 1
    private var nextPage = 1
    private var nextDialog = 1

    mutating func session() -> SessionID {
        defer { nextSession += 1 }
        return SessionID("s\(nextSession)")
    }

    mutating func page() -> PageID {
        defer { nextPage += 1 }
        return PageID("p\(nextPage)")
    }

    mutating func dialog() -> DialogID {
        defer { nextDialog += 1 }
        return DialogID("d\(nextDialog)")
    }
}
