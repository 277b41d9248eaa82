// The dashboard's copy of the server's state, kept by applying the stream's snapshot and events in seq order.
// No DOM here: views ask `takeChanges()` once per animation frame which sessions changed since they last drew.

import { describeEvent } from './events.js';

export const TIMELINE_CAP = 200;
const CLOSED_MEMORY = 100;

function sessionFrom(json) {
  const pages = new Map((json.pages ?? []).map((page) => [page.id, { ...page }]));
  return {
    id: json.id,
    label: json.label ?? '',
    engine: json.engine ?? '',
    popupMode: json.popupMode ?? 'stacked',
    createdAt: json.createdAt,
    userAgent: json.userAgent ?? '',
    pages,
    order: (json.order ?? [...pages.keys()]).filter((id) => pages.has(id)),
    timeline: [],
  };
}

export class Store {
  constructor() {
    /** @type {Map<string, ReturnType<typeof sessionFrom>>} in creation order */
    this.sessions = new Map();
    /** The newest event applied (or the snapshot's seq): what a reconnect resumes after. */
    this.lastSeq = null;
    /** Sessions closed while the dashboard watched, so a deep link can say so. */
    this.closed = new Map();
    this.dirty = new Set();
    this.everything = false;
    this.listeners = new Set();
    this.snapshots = 0;
    this.eventsApplied = 0;
  }

  onChange(listener) {
    this.listeners.add(listener);
  }

  /** What changed since the last call: `{all, ids}`; `all` after a snapshot (sessions may have gone). */
  takeChanges() {
    const changes = { all: this.everything, ids: this.dirty };
    this.everything = false;
    this.dirty = new Set();
    return changes;
  }

  /** Applies one stream message. Returns whether anything changed. */
  apply(message) {
    if (!message || typeof message !== 'object') return false;
    if (message.type === 'snapshot') {
      this.applySnapshot(message);
    } else if (typeof message.seq === 'number') {
      if (this.lastSeq !== null && message.seq <= this.lastSeq) return false; // replayed or duplicate
      this.lastSeq = message.seq;
      if (!this.applyEvent(message)) return false;
      this.eventsApplied += 1;
    } else {
      return false; // command answers: the dashboard sends no commands over the socket
    }
    for (const listener of this.listeners) listener();
    return true;
  }

  applySnapshot(message) {
    const previous = this.sessions;
    this.sessions = new Map();
    for (const json of message.sessions ?? []) {
      const session = sessionFrom(json);
      const before = previous.get(session.id);
      if (before) session.timeline = before.timeline;
      this.log(session, { seq: message.seq, type: 'snapshot' }, { pageId: null, kind: 'session',
        text: this.snapshots > 0 ? 'state reloaded from a snapshot (events in between were not replayed)'
          : `state as of event #${message.seq} (earlier events are not replayed)` });
      this.sessions.set(session.id, session);
    }
    for (const [id, session] of previous) {
      if (!this.sessions.has(id)) this.remember(session);
    }
    this.lastSeq = typeof message.seq === 'number' ? message.seq : this.lastSeq;
    this.snapshots += 1;
    this.everything = true;
  }

  applyEvent(event) {
    const sid = event.sessionId;
    if (event.type === 'session.created' && event.session) {
      const session = sessionFrom(event.session);
      const before = this.sessions.get(session.id);
      if (before) session.timeline = before.timeline;
      this.sessions.set(session.id, session);
      this.log(session, event);
      this.dirty.add(session.id);
      return true;
    }
    const session = this.sessions.get(sid);
    if (!session) return false;
    switch (event.type) {
      case 'session.closed':
        this.sessions.delete(sid);
        this.log(session, event);
        this.remember(session, event.reason);
        break;
      case 'page.opened': {
        const page = { ...event.page };
        session.pages.set(page.id, page);
        if (!session.order.includes(page.id)) session.order.push(page.id);
        if (page.visible) this.makeOnlyVisible(session, page.id);
        break;
      }
      case 'page.updated': {
        const page = session.pages.get(event.pageId);
        if (!page) return false;
        Object.assign(page, event.changes);
        if (event.changes?.visible === true) this.makeOnlyVisible(session, page.id);
        break;
      }
      case 'page.closed': {
        const page = session.pages.get(event.pageId);
        session.pages.delete(event.pageId);
        session.order = session.order.filter((id) => id !== event.pageId);
        if (page?.visible) this.guessVisibleAfterClose(session, page);
        break;
      }
      case 'dialog.opened': {
        const page = session.pages.get(event.pageId ?? event.dialog?.pageId);
        if (page && event.dialog) page.dialog = event.dialog;
        break;
      }
      case 'dialog.closed': {
        const page = session.pages.get(event.pageId);
        if (page?.dialog && (!event.dialogId || page.dialog.id === event.dialogId)) page.dialog = null;
        break;
      }
      case 'page.crashed': {
        const page = session.pages.get(event.pageId);
        if (page) page.crashed = true;
        break;
      }
      default:
        break; // popup.blocked, page.closeRefused, navigation.blocked, dialog.suppressed: timeline only
    }
    this.log(session, event);
    this.dirty.add(sid);
    return true;
  }

  /** One page visible per session (the server says so too; this keeps the view right between two events). */
  makeOnlyVisible(session, pageId) {
    for (const page of session.pages.values()) page.visible = page.id === pageId;
  }

  /** Until the server's own `visible` update arrives: the new stack top, or the closed tab's opener. */
  guessVisibleAfterClose(session, closed) {
    if ([...session.pages.values()].some((p) => p.visible)) return;
    let next = session.order[session.order.length - 1];
    if (session.popupMode === 'tabbed' && closed.openerId && session.pages.has(closed.openerId)) next = closed.openerId;
    const page = session.pages.get(next);
    if (page) page.visible = true;
  }

  log(session, event, line = describeEvent(event)) {
    if (!line) return;
    this.entries = (this.entries ?? 0) + 1;
    session.timeline.push({ n: this.entries, seq: event.seq, at: Date.now(), type: event.type, ...line });
    if (session.timeline.length > TIMELINE_CAP * 1.5) session.timeline.splice(0, session.timeline.length - TIMELINE_CAP);
  }

  remember(session, reason = null) {
    this.closed.set(session.id, { label: session.label, timeline: session.timeline, reason: typeof reason === 'string' ? reason : null });
    this.dirty.add(session.id);
    if (this.closed.size > CLOSED_MEMORY) this.closed.delete(this.closed.keys().next().value);
  }

  /** The main page of a session (role main, else the first in order). */
  static mainPage(session) {
    for (const page of session.pages.values()) if (page.role === 'main') return page;
    return session.pages.get(session.order[0]) ?? null;
  }

  static pendingDialogs(session) {
    let count = 0;
    for (const page of session.pages.values()) if (page.dialog) count += 1;
    return count;
  }
}
