import Foundation

/// One rule of a session's navigation rules (the seeds' `NavigationDeciding`): what it matches and whether
/// a match may load. Every part left out matches anything.
public struct NavigationRule: Sendable, Equatable {
    public enum Action: String, Sendable, CaseIterable {
        case allow, block
    }

    /// A URL scheme, compared without case (`https`).
    public var scheme: String?
    /// A host, without case: `example.test` matches that host only; `*.example.test` matches its
    /// subdomains (`a.example.test`, `b.a.example.test`) but not `example.test` itself, as in CSP.
    public var host: String?
    /// A path prefix, compared as given (`/admin` matches `/admin` and `/admin/x`, and `/administrator`).
    public var pathPrefix: String?
    public var action: Action

    public init(scheme: String? = nil, host: String? = nil, pathPrefix: String? = nil, action: Action) {
        self.scheme = scheme?.lowercased()
        self.host = host?.lowercased()
        self.pathPrefix = pathPrefix
        self.action = action
    }

    func matches(scheme urlScheme: String, host urlHost: String, path: String) -> Bool {
        if let scheme, scheme != urlScheme { return false }
        if let host {
            if host.hasPrefix("*.") {
                guard urlHost.hasSuffix(host.dropFirst(1)), urlHost.count > host.count - 1 else { return false }
            } else if host != urlHost {
                return false
            }
        }
        if let pathPrefix, !path.hasPrefix(pathPrefix) { return false }
        return true
    }
}

/// An ordered list of rules; the first that matches a URL decides, else `defaultAction`.
public struct NavigationRules: Sendable, Equatable {
    public var rules: [NavigationRule]
    public var defaultAction: NavigationRule.Action

    public init(rules: [NavigationRule] = [], defaultAction: NavigationRule.Action = .allow) {
        self.rules = rules
        self.defaultAction = defaultAction
    }

    /// What decided about a URL: a rule (by its place in the list) or the default.
    public struct Decision: Sendable, Equatable {
        public let action: NavigationRule.Action
        /// The index of the rule that matched; nil when the default decided.
        public let ruleIndex: Int?
        public let rule: NavigationRule?
    }

    /// Decides about `url`. Internal pages of the engine (`about:blank`, `about:srcdoc`) are always allowed:
    /// every new window starts there.
    public func decide(_ url: String) -> Decision {
        let lower = url.lowercased()
        if lower == "about:blank" || lower == "about:srcdoc" || lower.isEmpty {
            return Decision(action: .allow, ruleIndex: nil, rule: nil)
        }
        let components = URLComponents(string: url)
        let scheme = (components?.scheme ?? String(url.prefix { $0 != ":" })).lowercased()
        let host = (components?.host ?? "").lowercased()
        let path = components?.percentEncodedPath ?? ""
        for (index, rule) in rules.enumerated() where rule.matches(scheme: scheme, host: host, path: path) {
            return Decision(action: rule.action, ruleIndex: index, rule: rule)
        }
        return Decision(action: defaultAction, ruleIndex: nil, rule: nil)
    }

    public static let allowAll = NavigationRules()
}
