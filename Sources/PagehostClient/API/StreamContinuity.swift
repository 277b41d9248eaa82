/// Whether a stream client got every event, from the `seq` of what it read.
///
/// A jump in `seq` is not a loss by itself: for a client that fell behind, the server merges a page's queued
/// `page.updated` events into one later message carrying `coalesced: N` (the earlier ones it folded), and that
/// message may arrive after other events, so the gap it explains shows first. What is missed is counted over a
/// span (from one snapshot to the next): the seqs in it that were neither received nor folded. A snapshot after
/// the first replaces the events before it that the client never got (the server's answer to a client past
/// its bound); those count as missed.
public struct StreamContinuity: Sendable, Equatable {
    /// Places where `seq` jumped (explained or not).
    public private(set) var seqJumps = 0
    /// `page.updated` events the server folded into later ones for this client.
    public private(set) var coalesced: UInt64 = 0
    public private(set) var snapshots = 0
    public private(set) var lastSeq: UInt64?
    private var spanFirst: UInt64?
    private var spanCovered: UInt64 = 0
    private var missedBeforeSpan: UInt64 = 0

    public init() {}

    /// Events the client never got: neither received nor merged into one it received.
    public var missed: UInt64 {
        guard let first = spanFirst, let last = lastSeq, last >= first else { return missedBeforeSpan }
        let span = last - first + 1
        return missedBeforeSpan + (span > spanCovered ? span - spanCovered : 0)
    }

    /// A snapshot with its `seq` (the last event it includes).
    public mutating func snapshot(seq: UInt64) {
        snapshots += 1
        if let last = lastSeq, seq > last {
            seqJumps += 1
            missedBeforeSpan = missed + (seq - last)
            spanFirst = nil
            spanCovered = 0
        }
        lastSeq = max(lastSeq ?? 0, seq)
    }

    /// An event with its `seq` and its `coalesced` count (0 when it has none).
    public mutating func event(seq: UInt64, coalesced folded: UInt64 = 0) {
        if let last = lastSeq, seq != last + 1 { seqJumps += 1 }
        if spanFirst == nil { spanFirst = lastSeq.map { $0 + 1 } ?? (seq > folded ? seq - folded : 1) }
        spanCovered += 1 + folded
        coalesced += folded
        lastSeq = seq
    }
}
