import PagehostClient
import Testing

/// Counting what a stream client missed: a seq jump that merged updates explain is no loss, one they do not
/// explain is, and so is what a later snapshot replaced.
@Suite
struct StreamContinuityTests {
    @Test func everyEventInOrderMissesNothing() {
        var stream = StreamContinuity()
        stream.snapshot(seq: 10)
        for seq in 11...20 { stream.event(seq: UInt64(seq)) }
        #expect(stream.missed == 0)
        #expect(stream.seqJumps == 0)
    }

    @Test func aGapExplainedByAMergedUpdateThatArrivesLaterIsNoLoss() {
        var stream = StreamContinuity()
        stream.snapshot(seq: 4)
        // Queued: update 5 (page p1), 6, 7; update 8 for p1 merged 5 into itself and went to the end.
        stream.event(seq: 6)
        stream.event(seq: 7)
        #expect(stream.missed == 1, "5 is missing until the merged update says it folded it")
        stream.event(seq: 8, coalesced: 1)
        #expect(stream.missed == 0)
        #expect(stream.seqJumps == 1)
        #expect(stream.coalesced == 1)
    }

    @Test func aGapNothingExplainsIsMissed() {
        var stream = StreamContinuity()
        stream.snapshot(seq: 1)
        stream.event(seq: 2)
        stream.event(seq: 5)
        stream.event(seq: 6, coalesced: 1)
        #expect(stream.missed == 1)
    }

    @Test func whatALaterSnapshotReplacedIsMissedAndCountingStartsAgain() {
        var stream = StreamContinuity()
        stream.snapshot(seq: 1)
        stream.event(seq: 2)
        stream.snapshot(seq: 10)  // 3...10 replaced
        #expect(stream.missed == 8)
        stream.event(seq: 11)
        stream.event(seq: 12)
        #expect(stream.missed == 8)
        #expect(stream.snapshots == 2)
    }
}
