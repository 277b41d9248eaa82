/// Page-controlled text, cut to a bound so a 10 MB title cannot grow memory or events.
enum Text {
    /// `text` cut to at most `limit` characters, and whether it was cut.
    static func bounded(_ text: String, _ limit: Int) -> (String, Bool) {
        // utf8.count is O(1) for native strings: only long text pays for counting characters.
        guard text.utf8.count > limit, text.count > limit else { return (text, false) }
        return (String(text.prefix(limit)), true)
    }
}
