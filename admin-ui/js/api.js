// The HTTP API (docs/protocol.md). Requests carry the pagehost_token cookie that the dashboard URL set
// (same-origin fetch sends it); the token itself is never visible to this code and never stored by it.

export class APIError extends Error {
  constructor(status, code, message) {
    super(message || `HTTP ${status}`);
    this.status = status;
    this.code = code || 'http_error';
  }
}

const id = encodeURIComponent;

async function request(method, path, body, { expect = 'json', timeoutMs = 0 } = {}) {
  const init = { method, credentials: 'same-origin', cache: 'no-store', headers: {} };
  if (timeoutMs) init.signal = AbortSignal.timeout(timeoutMs);
  if (body !== undefined) {
    init.headers['content-type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch (error) {
    if (error.name === 'TimeoutError') throw new APIError(0, 'timeout', `no answer within ${timeoutMs / 1000} s`);
    throw new APIError(0, 'network', `cannot reach pagehost (${error.message})`);
  }
  if (!response.ok) {
    let detail = null;
    try { detail = (await response.json()).error; } catch { /* not JSON */ }
    throw new APIError(response.status, detail?.code, detail?.message || `${method} ${path}: HTTP ${response.status}`);
  }
  if (response.status === 204) return null;
  return expect === 'blob' ? response.blob() : response.json();
}

export const api = {
  /** `options`: url, label, popupMode, dialogPolicy, popupPolicy, userAgentSuffix (empty ones left out). */
  createSession: (options) => request('POST', '/api/sessions', options),
  closeSession: (sid) => request('DELETE', `/api/sessions/${id(sid)}`),
  closePage: (sid, pid) => request('POST', `/api/sessions/${id(sid)}/pages/${id(pid)}/close`),
  navigate: (sid, pid, url) => request('POST', `/api/sessions/${id(sid)}/pages/${id(pid)}/navigate`, { url }),
  /** `action`: back, forward, reload or stop (204; 409 when there is no history that way). */
  history: (sid, pid, action) => request('POST', `/api/sessions/${id(sid)}/pages/${id(pid)}/${action}`),
  /** → `{matches}`; the page highlights the first match. */
  find: (sid, pid, text, caseInsensitive) =>
    request('POST', `/api/sessions/${id(sid)}/pages/${id(pid)}/find`, { text, caseInsensitive }),
  /** `step`: next or previous → `{matches}`. */
  findStep: (sid, pid, step) => request('POST', `/api/sessions/${id(sid)}/pages/${id(pid)}/find/${step}`),
  clearFind: (sid, pid) => request('DELETE', `/api/sessions/${id(sid)}/pages/${id(pid)}/find`),
  /** Times out: a page whose web process is paused (a dialog waiting in its session) never answers. */
  screenshot: (sid, pid) => request('GET', `/api/sessions/${id(sid)}/pages/${id(pid)}/screenshot`, undefined,
    { expect: 'blob', timeoutMs: 15000 }),
  answerDialog: (sid, did, accept, text) =>
    request('POST', `/api/sessions/${id(sid)}/dialogs/${id(did)}`, text === undefined ? { accept } : { accept, text }),
  /**
   * The token's role: `operator` or `viewer`. A server without roles (404 on the route) has only operators.
   */
  async whoami() {
    try {
      const answer = await request('GET', '/api/whoami', undefined, { timeoutMs: 10000 });
      return answer?.role === 'viewer' ? 'viewer' : 'operator';
    } catch (error) {
      if (error.status === 404) return 'operator';
      throw error;
    }
  },
  /**
   * Whether the browser holds a valid token: a well-formed id that names nothing answers 404 with a token
   * and 401 without one, and costs the server nothing.
   */
  async isAuthorized() {
    try {
      await request('GET', '/api/sessions/s0');
      return true;
    } catch (error) {
      return error.status !== 401;
    }
  },
};
