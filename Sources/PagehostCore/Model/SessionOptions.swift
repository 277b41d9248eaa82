/// What a session is created with. Defaults are a plain browser window that asks about dialogs.
public struct SessionOptions: Sendable {
    public var label: String?
    public var popupMode: PopupMode = .stacked
    public var dialogPolicy: DialogPolicy = .ask
    /// Text a prompt gets when the policy accepts it; nil means the prompt's own default text.
    public var promptText: String?
    public var popupPolicy: PopupPolicy = .allow
    /// Popups a session may have open (or being opened) at once; past it, `window.open` returns null.
    public var maxPopups: Int = 20
    /// Appended to the engine's default user agent, after a space (e.g. `GOOGLE_PAY_SUPPORTED`).
    public var userAgentSuffix: String?
    public var viewport: Viewport = .standard
    /// Own web process and storage (default), or a shared pool for density.
    public var processModel: ProcessModel = .perSession
    /// What happens to a page whose web process crashed.
    public var onCrash: CrashPolicy = .keep
    /// How many times `onCrash: reload` reloads one page before it keeps the crashed page as it is.
    public var maxCrashReloads: Int = 3
    /// Closes the session when no command touched it and nobody watched it for this long.
    public var idleTimeout: Duration?
    /// Closes the session this long after it opened, whatever it is doing.
    public var maxLifetime: Duration?
    /// Answers a dialog nobody answered within this long with "dismiss".
    public var dialogTimeout: Duration?
    /// Which URLs the session's pages may load; checked for every navigation and popup.
    public var navigationRules: NavigationRules = .allowAll

    public init() {}
}
