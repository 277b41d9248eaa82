// The live stream: one WebSocket to /api/stream (subprotocol pagehost.v1). On a drop it reconnects with
// ?since=<last seq seen>; the server then replays what was missed, or sends a fresh snapshot when it no longer
// holds those events. The cookie set by the dashboard URL authenticates the upgrade.

const PROTOCOL = 'pagehost.v1';
const MAX_DELAY_MS = 5000;

export class StreamClient {
  /**
   * @param {object} o
   * @param {() => number|null} o.since  the last seq applied, or null for a fresh snapshot
   * @param {(message: object) => void} o.onMessage
   * @param {(status: {state: string, attempt: number, detail?: string}) => void} o.onStatus
   * @param {() => Promise<boolean>} [o.checkAuthorized]  asked after repeated failures
   */
  constructor({ path = '/api/stream', since, onMessage, onStatus, checkAuthorized }) {
    this.path = path;
    this.since = since;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.checkAuthorized = checkAuthorized;
    this.socket = null;
    this.attempt = 0;
    this.timer = null;
    this.stopped = true;
    this.failuresWithSince = 0;
    this.connections = 0;
    /** Set when the server refused the token; shown with every retry until a connection opens. */
    this.authProblem = null;
  }

  start() {
    if (!this.stopped) return;
    this.stopped = false;
    window.addEventListener('online', () => this.reconnectNow());
    document.addEventListener('visibilitychange', () => { if (!document.hidden) this.reconnectNow(); });
    this.connect();
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.timer);
    this.socket?.close(1000, 'dashboard closed');
    this.socket = null;
  }

  /** The stream URL, resuming after the last seen event unless resuming has failed repeatedly. */
  url() {
    const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const since = this.failuresWithSince >= 3 ? null : this.since();
    const query = since === null || since === undefined ? '' : `?since=${encodeURIComponent(since)}`;
    return `${scheme}//${location.host}${this.path}${query}`;
  }

  connect() {
    clearTimeout(this.timer);
    this.timer = null;
    const resuming = this.since() !== null;
    const socket = new WebSocket(this.url(), PROTOCOL);
    this.socket = socket;
    let opened = false;
    this.report(this.connections === 0 && this.attempt === 0 ? 'connecting' : 'reconnecting');
    socket.addEventListener('open', () => {
      opened = true;
      this.connections += 1;
      this.attempt = 0;
      this.failuresWithSince = 0;
      this.authProblem = null;
      this.report('connected');
    });
    socket.addEventListener('message', (event) => {
      let message;
      try { message = JSON.parse(event.data); } catch { return; }
      this.onMessage(message);
    });
    socket.addEventListener('close', () => {
      if (this.socket !== socket) return;
      this.socket = null;
      if (!opened && resuming) this.failuresWithSince += 1;
      if (!this.stopped) this.scheduleReconnect();
    });
  }

  scheduleReconnect() {
    this.attempt += 1;
    const delay = Math.min(MAX_DELAY_MS, 250 * 2 ** Math.min(this.attempt - 1, 5)) * (0.8 + Math.random() * 0.4);
    this.report('reconnecting');
    this.timer = setTimeout(() => this.connect(), delay);
    if (this.attempt % 3 === 0 && this.checkAuthorized) {
      this.checkAuthorized().then((ok) => {
        this.authProblem = ok ? null : 'no valid token: open the dashboard URL that pagehost printed (it has ?token=)';
        if (this.socket?.readyState !== WebSocket.OPEN) this.report('reconnecting');
      });
    }
  }

  report(state) {
    this.onStatus({ state: state !== 'connected' && this.authProblem ? 'unauthorized' : state,
      attempt: this.attempt, detail: this.authProblem ?? undefined });
  }

  /** Skips the back-off wait when the browser says the network is back or the tab is shown again. */
  reconnectNow() {
    if (!this.stopped && !this.socket && this.timer !== null) this.connect();
  }
}
