import PagehostCore

extension APICommands {
    /// A session's timeline, open or closed (post-mortem), as events in `seq` order; `not_found` for a session
    /// never seen or purged from the archive.
    func events(_ sid: SessionID) throws(PagehostError) -> JSONValue {
        guard let timeline = host.timeline(of: sid) else {
            throw PagehostError(.notFound, "no session \(sid), open or closed (closed sessions are kept for a while, then purged)")
        }
        return .array(timeline.map(\.json))
    }
}
