import CWebKitGTK
import PagehostCore

extension WebKitPage {
    /// `decide-policy`: every navigation (and new-window) action goes past the session's navigation rules;
    /// a main-frame response WebKit cannot show (a download) is cancelled and reported.
    func connectPolicySignals() {
        typealias DecidePolicy = @convention(c) (gpointer?, gpointer?, WebKitPolicyDecisionType, gpointer?) -> gboolean
        let decide: DecidePolicy = { _, decision, type, data in
            let target = SignalTarget<WebKitPage>.from(data)
            let bits = UInt(bitPattern: decision)
            let raw = type.rawValue
            return LoopActor.assumeIsolated {
                guard let page = target.target, let decision = UnsafeMutableRawPointer(bitPattern: bits) else { return 0 }
                return page.decide(decision, type: WebKitPolicyDecisionType(rawValue: raw)) ? 1 : 0
            }
        }
        signals.connect(UnsafeMutableRawPointer(view), "decide-policy", decide)
    }

    /// Returns whether the decision was taken here (TRUE to WebKit); otherwise WebKit's default applies.
    private func decide(_ raw: UnsafeMutableRawPointer, type: WebKitPolicyDecisionType) -> Bool {
        let decision = raw.assumingMemoryBound(to: WebKitPolicyDecision.self)
        switch type {
        case WEBKIT_POLICY_DECISION_TYPE_NAVIGATION_ACTION, WEBKIT_POLICY_DECISION_TYPE_NEW_WINDOW_ACTION:
            let action = webkit_navigation_policy_decision_get_navigation_action(raw.assumingMemoryBound(to: WebKitNavigationPolicyDecision.self))
            let request = action.flatMap { webkit_navigation_action_get_request($0) }
            let url = request.flatMap { webkit_uri_request_get_uri($0) }.map { String(cString: $0) } ?? ""
            guard let events, !events.navigationRequested(by: id, url: url) else { return false }
            webkit_policy_decision_ignore(decision)
            return true
        case WEBKIT_POLICY_DECISION_TYPE_RESPONSE:
            let decision = raw.assumingMemoryBound(to: WebKitResponsePolicyDecision.self)
            guard webkit_response_policy_decision_is_main_frame_main_resource(decision) != 0,
                  webkit_response_policy_decision_is_mime_type_supported(decision) == 0 else { return false }
            let response = webkit_response_policy_decision_get_response(decision)
            let url = response.flatMap { webkit_uri_response_get_uri($0) }.map { String(cString: $0) } ?? ""
            let mimeType = response.flatMap { webkit_uri_response_get_mime_type($0) }.map { String(cString: $0) } ?? ""
            webkit_policy_decision_ignore(raw.assumingMemoryBound(to: WebKitPolicyDecision.self))
            events?.responseNotDisplayable(in: id, url: url, mimeType: mimeType)
            return true
        default:
            return false
        }
    }
}
