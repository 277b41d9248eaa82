import PagehostCore

/// The commands of the API, shared by HTTP routes and stream commands: JSON in (already parsed), JSON out.
/// Every input is validated before the host is touched, so a refused command changes nothing.
///
/// Thread: LoopActor.
@LoopActor
struct APICommands {
    let host: SessionHost
    let configuration: ServerConfiguration

    func listSessions() -> JSONValue {
        .array(host.snapshots.map(\.json))
    }

    func session(_ sid: SessionID) throws(PagehostError) -> JSONValue {
        try host.snapshot(of: sid).json
    }

    func createSession(_ body: JSONValue, context: String = "body") throws(PagehostError) -> JSONValue {
        var (options, request) = try SessionRequestDecoder.createSession(body, defaults: configuration.sessionDefaults,
                                                                         context: context, schemes: configuration.customSchemeNames)
        options.maxPopups = min(options.maxPopups, configuration.limits.pagesPerSession - 1)
        return try host.createSession(options, loading: request).json
    }

    func closeSession(_ sid: SessionID) throws(PagehostError) {
        try host.closeSession(sid)
    }

    /// Checks the page now; the work closes it, waiting for the page's consent up to the grace period.
    func closePage(_ sid: SessionID, _ pid: PageID) throws(PagehostError) -> @LoopActor () async throws(PagehostError) -> JSONValue {
        try checkPage(pid, in: sid)
        let host = self.host
        return { () async throws(PagehostError) -> JSONValue in
            let closed = try await host.closePage(pid, in: sid)
            return .object([("pageId", .string(closed.id.rawValue)), ("forced", .bool(closed.forced))])
        }
    }

    func navigate(_ sid: SessionID, _ pid: PageID, _ body: JSONValue, context: String = "body") throws(PagehostError) -> JSONValue {
        let request = try SessionRequestDecoder.navigate(body, context: context, schemes: configuration.customSchemeNames)
        try checkPage(pid, in: sid)
        try host.navigate(pid, to: request)
        return try host.page(pid).json
    }

    /// Validates the input now (so errors come back before anything runs) and returns the work to await.
    func evaluate(_ sid: SessionID, _ pid: PageID, _ body: JSONValue, context: String = "body")
        throws(PagehostError) -> @LoopActor () async throws(PagehostError) -> JSONValue
    {
        let (script, arguments) = try SessionRequestDecoder.evaluate(body, context: context)
        try checkPage(pid, in: sid)
        let host = self.host
        return { () async throws(PagehostError) -> JSONValue in
            try await host.evaluate(script, arguments: arguments, in: pid)
        }
    }

    func screenshot(_ sid: SessionID, _ pid: PageID) throws(PagehostError) -> @LoopActor () async throws(PagehostError) -> [UInt8] {
        try checkPage(pid, in: sid)
        let host = self.host
        return { () async throws(PagehostError) -> [UInt8] in try await host.screenshot(pid) }
    }

    func answerDialog(_ sid: SessionID, _ did: DialogID, _ body: JSONValue, context: String = "body") throws(PagehostError) -> JSONValue {
        let answer = try SessionRequestDecoder.dialogAnswer(body, context: context)
        _ = try host.snapshot(of: sid)
        guard let dialog = host.pendingDialog(did), dialog.sessionID == sid else { throw .noDialog(did) }
        try host.answerDialog(did, with: answer)
        return ["answered": .string(did.rawValue)]
    }

    func health() -> JSONValue {
        .object([("status", "ok"), ("sessions", .int(host.sessionCount)), ("pages", .int(host.pageCount))])
    }

    func checkPage(_ pid: PageID, in sid: SessionID) throws(PagehostError) {
        _ = try host.snapshot(of: sid)
        guard try host.page(pid).sessionID == sid else { throw .noPage(pid) }
    }
}
