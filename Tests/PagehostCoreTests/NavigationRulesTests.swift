import PagehostCore
import Testing

/// The first matching rule decides; parts left out match anything; `*.` matches subdomains only.
@Suite("Navigation rules")
struct NavigationRulesTests {
    let rules = NavigationRules(rules: [
        NavigationRule(host: "*.example.test", action: .block),
        NavigationRule(scheme: "https", host: "pay.example.org", pathPrefix: "/checkout", action: .allow),
        NavigationRule(host: "pay.example.org", action: .block),
        NavigationRule(scheme: "ftp", action: .block),
    ], defaultAction: .allow)

    @Test(arguments: [
        ("http://a.example.test/", NavigationRule.Action.block, 0),
        ("https://b.a.EXAMPLE.test/x", .block, 0),
        ("https://pay.example.org/checkout/42", .allow, 1),
        ("http://pay.example.org/checkout/42", .block, 2),
        ("https://pay.example.org/account", .block, 2),
        ("ftp://files.example.net/", .block, 3),
    ])
    func theFirstMatchingRuleDecides(url: String, action: NavigationRule.Action, index: Int) {
        let decision = rules.decide(url)
        #expect(decision.action == action)
        #expect(decision.ruleIndex == index)
    }

    @Test(arguments: ["http://example.test/", "https://notexample.test/", "https://elsewhere.org/", "about:blank"])
    func unmatchedURLsTakeTheDefault(url: String) {
        let decision = rules.decide(url)
        #expect(decision.action == .allow)
        #expect(decision.ruleIndex == nil)
    }

    @Test func aBlockingDefaultStillLetsNewWindowsStartBlank() {
        let closed = NavigationRules(rules: [NavigationRule(host: "ok.test", action: .allow)], defaultAction: .block)
        #expect(closed.decide("https://ok.test/").action == .allow)
        #expect(closed.decide("https://other.test/").action == .block)
        #expect(closed.decide("about:blank").action == .allow)
    }
}
