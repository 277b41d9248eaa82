import PagehostCore

/// Helpers to read stream messages in tests.
extension JSONValue {
    var type: String? { self["type"]?.stringValue }
    var seq: Int? { self["seq"]?.intValue }

    /// Whether this is an event of `type` (and, if given, about `pageId`).
    func isEvent(_ type: String, page: String? = nil) -> Bool {
        self.type == type && (page == nil || self["pageId"]?.stringValue == page)
    }

    /// A `page.updated` whose changes include `key` with `value` (any value when nil).
    func updates(_ key: String, to value: JSONValue? = nil, page: String? = nil) -> Bool {
        guard isEvent("page.updated", page: page), let change = self["changes"]?[key] else { return false }
        return value == nil || change == value
    }
}

/// Popup-opening pages for tests.
enum TestPages {
    /// A page titled "Opener" that opens `count` popups at load; each popup titles itself "Popup N".
    static func opener(popups count: Int) -> String {
        """
        <!doctype html><title>Opener</title><body><script>
        for (let i = 1; i <= \(count); i++) {
          const w = window.open('about:blank', 'popup' + i);
          if (w) { w.document.write('<title>Popup ' + i + '</title><p>popup ' + i); w.document.close(); }
        }
        </script></body>
        """
    }
}
