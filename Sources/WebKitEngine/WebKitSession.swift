import CWebKitGTK
import PagehostCore

/// What a session's pages share in WebKit: one `WebKitSettings` (user agent with the session's suffix,
/// no hardware acceleration, scripts may open windows so the session's popup policy decides). Its storage is the main view's own ephemeral data store, which popups inherit
/// through their related view.
///
/// Thread: LoopActor. Owns one reference to the settings, dropped in `close()`.
@LoopActor
final class WebKitSession {
    let id: SessionID
    let options: SessionOptions
    let settings: UnsafeMutablePointer<WebKitSettings>
    let userAgent: String

    init(id: SessionID, options: SessionOptions) {
        self.id = id
        self.options = options
        settings = webkit_settings_new()
        webkit_settings_set_hardware_acceleration_policy(settings, WEBKIT_HARDWARE_ACCELERATION_POLICY_NEVER)
        webkit_settings_set_javascript_can_open_windows_automatically(settings, 1)
        webkit_settings_set_enable_developer_extras(settings, 0)
        let base = String(cString: webkit_settings_get_user_agent(settings))
        if let suffix = options.userAgentSuffix, !suffix.isEmpty {
            webkit_settings_set_user_agent(settings, base + " " + suffix)
        }
        userAgent = String(cString: webkit_settings_get_user_agent(settings))
    }

    func close() {
        g_object_unref(settings)
    }
}
