// Page thumbnails: screenshots fetched with the cookie, shown through blob: URLs (the CSP allows img-src
// blob:). At most one request per page per second, and one in flight per page; a request that comes too soon
// is not dropped but delayed, so the thumbnail always ends up showing the latest state.

export const MIN_INTERVAL_MS = 1000;

export class Thumbnails {
  constructor(api, { minIntervalMs = MIN_INTERVAL_MS } = {}) {
    this.api = api;
    this.minIntervalMs = minIntervalMs;
    /** @type {Map<string, {sid, pid, last, inFlight, again, timer, url, onUpdate}>} */
    this.pages = new Map();
    this.fetches = 0;
    /** When the latest fetches started (performance.now()), for the tests of the rate limit. */
    this.started = [];
  }

  /**
   * Asks for a fresh screenshot of a page. `onUpdate(url, error)` gets a blob: URL (valid until the next
   * update or `forget`) or an error message.
   */
  request(sid, pid, onUpdate) {
    let entry = this.pages.get(pid);
    if (!entry) {
      entry = { sid, pid, last: -Infinity, inFlight: false, again: false, timer: null, url: null, onUpdate };
      this.pages.set(pid, entry);
    }
    entry.onUpdate = onUpdate;
    if (entry.inFlight) { entry.again = true; return; }
    if (entry.timer !== null) return;
    const wait = entry.last + this.minIntervalMs - performance.now();
    if (wait > 0) {
      entry.timer = setTimeout(() => { entry.timer = null; this.fetch(entry); }, wait);
    } else {
      this.fetch(entry);
    }
  }

  async fetch(entry) {
    if (this.pages.get(entry.pid) !== entry) return;
    entry.inFlight = true;
    entry.last = performance.now();
    this.fetches += 1;
    this.started.push({ pid: entry.pid, at: entry.last });
    if (this.started.length > 50) this.started.shift();
    try {
      const blob = await this.api.screenshot(entry.sid, entry.pid);
      if (this.pages.get(entry.pid) !== entry) return;
      const old = entry.url;
      entry.url = URL.createObjectURL(blob);
      entry.onUpdate(entry.url, null);
      if (old) URL.revokeObjectURL(old);
    } catch (error) {
      if (this.pages.get(entry.pid) === entry) entry.onUpdate(null, error.message);
    } finally {
      entry.inFlight = false;
      if (entry.again && this.pages.get(entry.pid) === entry) {
        entry.again = false;
        this.request(entry.sid, entry.pid, entry.onUpdate);
      }
    }
  }

  /** The page is gone or no longer shown: cancel what is pending and free its image. */
  forget(pid) {
    const entry = this.pages.get(pid);
    if (!entry) return;
    clearTimeout(entry.timer);
    if (entry.url) URL.revokeObjectURL(entry.url);
    this.pages.delete(pid);
  }
}
