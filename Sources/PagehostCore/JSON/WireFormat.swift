import Foundation

// The wire contract's JSON shapes (docs/protocol.md): one place renders each core value, so the stream,
// the HTTP API and `pagehost open` print the same thing.

extension WindowFeatures {
    public var json: JSONValue {
        .object([
            ("x", x.map(JSONValue.int) ?? .null),
            ("y", y.map(JSONValue.int) ?? .null),
            ("width", width.map(JSONValue.int) ?? .null),
            ("height", height.map(JSONValue.int) ?? .null),
            ("toolbarVisible", .bool(toolbarVisible)),
            ("statusbarVisible", .bool(statusbarVisible)),
            ("scrollbarsVisible", .bool(scrollbarsVisible)),
            ("menubarVisible", .bool(menubarVisible)),
            ("locationbarVisible", .bool(locationbarVisible)),
            ("resizable", .bool(resizable)),
            ("fullscreen", .bool(fullscreen)),
        ])
    }
}

extension Navigation {
    public var json: JSONValue {
        .object([("id", .int(id)), ("event", .string(event.rawValue)), ("error", .string(error))])
    }
}

extension ScrollState {
    public var json: JSONValue {
        .object([("x", .number(x)), ("y", .number(y)), ("contentWidth", .number(contentWidth)),
                 ("contentHeight", .number(contentHeight))])
    }
}

extension NavigationRule {
    public var json: JSONValue {
        .object([("scheme", .string(scheme)), ("host", .string(host)), ("pathPrefix", .string(pathPrefix)),
                 ("action", .string(action.rawValue))])
    }
}

extension Event.BlockedBy {
    public var json: JSONValue {
        switch self {
        case .rule(let index, let rule):
            return .object([("kind", "rule"), ("index", .int(index))] + (rule.json.objectValue ?? []))
        case .defaultAction:
            return .object([("kind", "default"), ("action", "block")])
        case .notDisplayable(let mimeType):
            return .object([("kind", "notDisplayable"), ("mimeType", .string(mimeType))])
        }
    }
}

extension Dialog {
    public var json: JSONValue {
        .object([
            ("id", .string(id.rawValue)),
            ("pageId", .string(pageID.rawValue)),
            ("sessionId", .string(sessionID.rawValue)),
            ("kind", .string(kind.rawValue)),
            ("message", .string(message)),
            ("defaultText", .string(defaultText)),
            ("truncated", .bool(truncated)),
        ])
    }
}

extension DialogAnswer {
    public var json: JSONValue {
        .object([("accept", .bool(accept)), ("text", .string(text))])
    }
}

extension PageState {
    /// The Page object, every property.
    public var json: JSONValue {
        .object([
            ("id", .string(id.rawValue)),
            ("sessionId", .string(sessionID.rawValue)),
            ("openerId", .string(openerID?.rawValue)),
        ] + properties)
    }

    /// The properties that can change, in wire order.
    private var properties: [(String, JSONValue)] {
        [
            ("hasOpener", .bool(hasOpener)),
            ("role", .string(role.rawValue)),
            ("visible", .bool(visible)),
            ("url", .string(url)),
            ("title", .string(title)),
            ("isLoading", .bool(isLoading)),
            ("estimatedProgress", .number(estimatedProgress)),
            ("themeColor", .string(themeColor)),
            ("hasOnlySecureContent", .bool(hasOnlySecureContent)),
            ("canGoBack", .bool(canGoBack)),
            ("canGoForward", .bool(canGoForward)),
            ("windowFeatures", windowFeatures?.json ?? .null),
            ("navigation", navigation?.json ?? .null),
            ("dialog", dialog?.json ?? .null),
            ("crashed", .bool(crashed)),
            ("scroll", scroll?.json ?? .null),
            ("responsive", .bool(responsive)),
            ("truncated", .bool(truncated)),
        ]
    }

    /// Only the properties whose values differ from `old`'s, for `page.updated`.
    public func changes(from old: PageState) -> [(String, JSONValue)] {
        zip(properties, old.properties).compactMap { new, old in new.1 == old.1 ? nil : new }
    }
}

extension SessionSnapshot {
    public var json: JSONValue {
        .object([
            ("id", .string(id.rawValue)),
            ("label", .string(label)),
            ("engine", .string(engine)),
            ("popupMode", .string(popupMode.rawValue)),
            ("createdAt", .string(createdAt.formatted(.iso8601))),
            ("pages", .array(pages.map(\.json))),
            ("order", .array(order.map { .string($0.rawValue) })),
            ("userAgent", .string(userAgent)),
        ])
    }
}

extension Event {
    /// `{"type": …, "seq": N, "sessionId": …, …}`.
    public var json: JSONValue {
        var members: [(String, JSONValue)] = [
            ("type", .string(type)),
            ("seq", .number(Double(seq))),
            ("sessionId", .string(sessionID.rawValue)),
        ]
        switch payload {
        case .sessionCreated(let session):
            members.append(("session", session.json))
        case .sessionClosed:
            members.append(("reason", .string(Event.SessionCloseReason.command.rawValue)))
        case .sessionEnded(_, let reason):
            members.append(("reason", .string(reason.rawValue)))
        case .pageOpened(let page):
            members += [("pageId", .string(page.id.rawValue)), ("openerId", .string(page.openerID?.rawValue)),
                        ("page", page.json)]
        case .pageUpdated(_, let page, let changes):
            members += [("pageId", .string(page.rawValue)), ("changes", .object(changes))]
        case .pageClosed(_, let page, let reason, let forced):
            members += [("pageId", .string(page.rawValue)), ("reason", .string(reason.rawValue)), ("forced", .bool(forced))]
        case .pageCloseRefused(_, let page, let reason):
            members += [("pageId", .string(page.rawValue)), ("reason", .string(reason))]
        case .dialogOpened(let dialog):
            members += [("pageId", .string(dialog.pageID.rawValue)), ("dialog", dialog.json)]
        case .dialogClosed(let dialog, let answer, let by):
            members += [("pageId", .string(dialog.pageID.rawValue)), ("dialogId", .string(dialog.id.rawValue)),
                        ("kind", .string(dialog.kind.rawValue)), ("answer", answer.json), ("by", .string(by.rawValue))]
        case .popupBlocked(_, let opener, let url, let reason):
            members += [("pageId", .string(opener.rawValue)), ("url", .string(url)), ("reason", .string(reason.rawValue)),
                        ("count", 1)]
        case .popupsBlocked(_, let opener, let url, let reason, let count):
            members += [("pageId", .string(opener.rawValue)), ("url", .string(url)), ("reason", .string(reason.rawValue)),
                        ("count", .int(count))]
        case .dialogsSuppressed(_, let page, let kind, let count):
            members += [("pageId", .string(page.rawValue)), ("kind", .string(kind.rawValue)), ("count", .int(count))]
        case .pageCrashed(_, let page, let reason):
            members += [("pageId", .string(page.rawValue)), ("reason", .string(reason))]
        case .navigationBlocked(_, let page, let url, let rule):
            members += [("pageId", .string(page.rawValue)), ("url", .string(url)), ("rule", rule.json)]
        }
        return .object(members)
    }
}
