// The dashboard's entry point: wires the stream to the store, and the store to the views, redrawing at most
// once per animation frame whatever the number of events in between.

import { api } from './api.js';
import { StreamClient } from './stream.js';
import { Store } from './store.js';
import { Thumbnails } from './thumbnails.js';
import { OverviewView } from './overview.js';
import { SessionView } from './session-view.js';
import { setUpCreateForm } from './create-form.js';
import { setText } from './dom.js';

const AGE_REFRESH_MS = 5000;

const store = new Store();
const thumbnails = new Thumbnails(api);
const overviewRoot = document.getElementById('overview-view');
const sessionRoot = document.getElementById('session-view');
const connection = document.getElementById('connection');
const roleBadge = document.getElementById('role-badge');
const overview = new OverviewView(overviewRoot, store);
const sessionView = new SessionView(sessionRoot, store, api, thumbnails);

let route = { name: 'overview' };
let frame = 0;
let status = { state: 'connecting', attempt: 0 };
let routeChanged = true;
let tick = false;

/** Frames drawn and the time spent drawing them (read by the performance test). */
export const stats = { frames: 0, drawMs: 0, longestDrawMs: 0 };

function scheduleRender() {
  if (!frame) frame = requestAnimationFrame(render);
}
overview.requestRender = scheduleRender;

function render() {
  frame = 0;
  const started = performance.now();
  const changes = store.takeChanges();
  changes.tick = tick;
  tick = false;
  if (routeChanged) {
    routeChanged = false;
    const onSession = route.name === 'session';
    overviewRoot.hidden = onSession;
    sessionRoot.hidden = !onSession;
    if (onSession) {
      sessionView.show(route.sessionId);
      overview.remember(changes);
    } else {
      sessionView.hide();
      document.title = 'Pagehost dashboard';
      overview.remember({ all: true, ids: new Set() });
    }
  }
  if (route.name === 'session') {
    overview.remember(changes);
    sessionView.render(changes);
  } else {
    overview.ageTick ||= changes.tick;
    overview.render(changes);
  }
  drawConnection();
  const spent = performance.now() - started;
  stats.frames += 1;
  stats.drawMs += spent;
  stats.longestDrawMs = Math.max(stats.longestDrawMs, spent);
}

function drawConnection() {
  const labels = {
    connecting: 'Connecting…',
    connected: 'Connected',
    reconnecting: `Reconnecting${status.attempt > 1 ? ` (attempt ${status.attempt})` : ''}…`,
    unauthorized: `Not connected: ${status.detail}`,
  };
  setText(connection, labels[status.state] ?? status.state);
  connection.dataset.state = status.state;
  connection.title = store.lastSeq === null ? '' : `last event #${store.lastSeq}`;
}

function readRoute() {
  const match = /^#\/sessions\/([^/?#]+)$/.exec(location.hash);
  route = match ? { name: 'session', sessionId: decodeURIComponent(match[1]) } : { name: 'overview' };
  routeChanged = true;
  scheduleRender();
  if (route.name === 'overview' && location.hash === '#/sessions') location.hash = '#/';
}

/** Applies one stream message (the stream calls this; the performance test feeds synthetic ones). */
/**
 * The token's role (GET /api/whoami) as `data-role` on <body>: the CSS shows `.operator-only` controls only to
 * an operator, so nothing a viewer could not use is on screen (the server refuses them anyway, with 403). While
 * the role is unknown the controls stay hidden; it is asked again on every (re)connection.
 */
export const role = { current: 'unknown' };

async function refreshRole() {
  try {
    role.current = await api.whoami();
  } catch {
    return; // not reachable or not authorized: the stream says so; asked again when it connects
  }
  document.body.dataset.role = role.current;
  roleBadge.hidden = role.current !== 'viewer';
}

export function handleMessage(message) {
  if (store.apply(message)) scheduleRender();
}

export const stream = new StreamClient({
  since: () => store.lastSeq,
  onMessage: handleMessage,
  onStatus: (next) => {
    const firstWithRole = status.state === 'connecting' && role.current !== 'unknown';
    if (next.state === 'connected' && status.state !== 'connected' && !firstWithRole) refreshRole();
    status = next;
    scheduleRender();
  },
  checkAuthorized: () => api.isAuthorized(),
});

export { store, overview, sessionView, thumbnails };

setUpCreateForm(document.getElementById('create-form'), api);
window.addEventListener('hashchange', readRoute);
setInterval(() => { tick = true; scheduleRender(); }, AGE_REFRESH_MS);
readRoute();
refreshRole().finally(() => stream.start());
