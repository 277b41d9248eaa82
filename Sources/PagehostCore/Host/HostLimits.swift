/// Limits that hold for the whole host: every queue and every page-controlled quantity is bounded.
public struct HostLimits: Sendable {
    /// Sessions open at once; one more is refused with `limit_exceeded`.
    public var maxSessions: Int = 200
    /// Events kept for `?since=` resumption and post-mortem timelines.
    public var eventLogCapacity: Int = 10_000
    /// Page-controlled text (titles, URLs, dialog messages) is cut to this many characters in state and
    /// events, with `truncated: true`.
    public var maxTextLength: Int = 4096
    /// At most one `popup.blocked` (and one `dialog.suppressed`) per session and this interval; the refusals
    /// in between are counted into the next one.
    public var refusalReportInterval: Duration = .seconds(1)
    /// More dialogs than this from one page within `dialogWindow` and the page's further dialogs are answered
    /// at once with "dismiss" until it navigates (Chromium's "prevent this page from creating additional
    /// dialogs").
    public var dialogLimit: Int = 10
    public var dialogWindow: Duration = .seconds(10)
    /// How long a closed session's timeline stays readable, and how many closed sessions are kept.
    public var closedSessionRetention: Duration = .seconds(3600)
    public var closedSessionLimit: Int = 200
    /// Events kept per closed session.
    public var closedSessionEvents: Int = 2000
    /// How long an admin close waits for a popup's consent (its `beforeunload` handlers, and the `beforeunload`
    /// dialog they may show) before it closes the popup anyway, with `forced: true`.
    public var closeGracePeriod: Duration = .seconds(10)

    public init() {}
}
