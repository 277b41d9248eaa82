// One session (#/sessions/ID): a stacked session as overlapping cards (main page at the bottom, the visible
// top page in front), a tabbed session as a tab strip over the selected tab's card; the timeline beside.

import { h, setText, setHidden, setClass, formatAge } from './dom.js';
import { PageCard } from './page-card.js';
import { TimelineView } from './timeline.js';

export class SessionView {
  constructor(root, store, api, thumbnails) {
    this.root = root;
    this.store = store;
    this.api = api;
    this.thumbnails = thumbnails;
    this.sessionId = null;
    /** @type {Map<string, PageCard>} */
    this.cards = new Map();
    /** @type {Map<string, {node: HTMLElement, tab: HTMLButtonElement, label: HTMLElement, mark: HTMLElement}>} */
    this.tabs = new Map();
    this.peeked = new Set();
    this.selectedTab = null;
    this.lastVisible = null;
    this.build();
  }

  build() {
    const r = this.refs = {};
    r.label = h('h2', { class: 'session-label', id: 'session-label' });
    r.id = h('span', { class: 'session-id' });
    r.engine = h('span', { class: 'badge engine' });
    r.mode = h('span', { class: 'badge mode' });
    r.meta = h('p', { class: 'session-meta' });
    r.ua = h('p', { class: 'session-ua' });
    r.closeSession = h('button', { class: 'close-session danger operator-only', type: 'button', text: 'Close session',
      on: { click: () => this.closeSession() } });
    r.error = h('p', { class: 'session-error error', hidden: true, attrs: { role: 'alert' } });
    r.notice = h('p', { class: 'session-notice', hidden: true, attrs: { role: 'status' } });
    r.tabstrip = h('div', { class: 'tabstrip', attrs: { role: 'tablist', 'aria-label': 'Tabs' }, hidden: true,
      on: { keydown: (e) => this.tabKeys(e) } });
    r.pages = h('div', { class: 'page-area' });
    r.timeline = h('ol', { class: 'timeline', attrs: { 'aria-live': 'off' } });
    r.head = h('header', { class: 'session-head' },
      h('div', { class: 'session-title-row' }, r.label, r.id, r.engine, r.mode,
        h('div', { class: 'session-actions' }, r.closeSession)),
      r.meta, r.ua, r.error);
    r.layout = h('div', { class: 'session-layout' },
      h('section', { class: 'pages-panel', attrs: { 'aria-label': 'Pages' } }, r.tabstrip, r.pages),
      h('section', { class: 'timeline-panel', attrs: { 'aria-labelledby': 'timeline-heading' } },
        h('h3', { id: 'timeline-heading', text: 'Timeline (newest first)' }), r.timeline));
    this.root.replaceChildren(
      h('nav', { class: 'crumbs' }, h('a', { href: '#/', text: '← All sessions' })),
      r.notice, r.head, r.layout);
    this.timeline = new TimelineView(r.timeline);
  }

  /** Shows a session (or says it is not there); forgets the previous one's cards and thumbnails. */
  show(sessionId) {
    if (sessionId === this.sessionId) return;
    this.clear();
    this.sessionId = sessionId;
    this.selectedTab = null;
    this.lastVisible = null;
    this.peeked.clear();
    this.confirmingClose = false;
    setText(this.refs.closeSession, 'Close session');
    this.draw();
  }

  clear() {
    for (const card of this.cards.values()) card.destroy();
    this.cards.clear();
    for (const tab of this.tabs.values()) tab.node.remove();
    this.tabs.clear();
    this.sessionId = null;
  }

  hide() {
    this.clear();
  }

  render(changes) {
    if (this.sessionId === null) return;
    if (changes.all || changes.ids.has(this.sessionId) || changes.tick) this.draw();
  }

  draw() {
    const r = this.refs;
    const session = this.store.sessions.get(this.sessionId);
    document.title = `Pagehost — session ${this.sessionId}`;
    if (!session) {
      const closed = this.store.closed.get(this.sessionId);
      setText(r.notice, closed ? `Session ${this.sessionId} was closed${closed.reason ? ` (reason: ${closed.reason})` : ''}.`
        : this.store.lastSeq === null ? 'Loading…' : `There is no session ${this.sessionId}.`);
      setHidden(r.notice, false);
      setHidden(r.head, true);
      setHidden(r.layout, !closed);
      for (const card of this.cards.values()) card.destroy();
      this.cards.clear();
      for (const tab of this.tabs.values()) tab.node.remove();
      this.tabs.clear();
      if (closed) this.timeline.render(this.sessionId, closed.timeline);
      return;
    }
    setHidden(r.notice, true);
    setHidden(r.head, false);
    setHidden(r.layout, false);
    setText(r.label, session.label || session.id);
    setText(r.id, session.label ? session.id : '');
    setText(r.engine, session.engine);
    setText(r.mode, session.popupMode);
    const pages = session.order.map((id) => session.pages.get(id)).filter(Boolean);
    setText(r.meta, `${pages.length} page${pages.length === 1 ? '' : 's'} open · created ${formatAge(session.createdAt)} ago`);
    setText(r.ua, `User agent: ${session.userAgent}`);

    let focusLost = false;
    for (const [pid, card] of this.cards) {
      if (!session.pages.has(pid)) {
        focusLost ||= card.node.contains(document.activeElement) || Boolean(this.tabs.get(pid)?.node.contains(document.activeElement));
        card.destroy();
        this.cards.delete(pid);
        this.peeked.delete(pid);
      }
    }
    const paused = pages.some((page) => page.dialog);
    for (const page of pages) {
      let card = this.cards.get(page.id);
      if (!card) {
        card = new PageCard({ sessionId: session.id, page, api: this.api, thumbnails: this.thumbnails,
          onPeek: (pid) => this.togglePeek(pid) });
        this.cards.set(page.id, card);
      }
      card.update(page, { paused });
    }
    if (session.popupMode === 'tabbed') this.drawTabs(session, pages);
    else this.drawStack(pages);
    this.timeline.render(session.id, session.timeline);
    // The page whose × had the focus is gone: the keyboard goes on from the page now visible.
    if (focusLost) this.cards.get(pages.find((p) => p.visible)?.id ?? pages[0]?.id)?.focusTitle();
  }

  drawStack(pages) {
    const area = this.refs.pages;
    setHidden(this.refs.tabstrip, true);
    setClass(area, 'stack', true);
    setClass(area, 'tab-panels', false);
    pages.forEach((page, index) => {
      const card = this.cards.get(page.id);
      const covered = index < pages.length - 1;
      card.node.removeAttribute('role');
      setClass(card.node, 'is-top', !covered);
      card.place({ depth: index, covered, peeked: this.peeked.has(page.id) });
      if (area.children[index] !== card.node) area.insertBefore(card.node, area.children[index] ?? null);
    });
  }

  drawTabs(session, pages) {
    const strip = this.refs.tabstrip;
    const area = this.refs.pages;
    setHidden(strip, false);
    setClass(area, 'stack', false);
    setClass(area, 'tab-panels', true);
    const visible = pages.find((p) => p.visible)?.id ?? pages[0]?.id ?? null;
    if (visible !== this.lastVisible) {
      this.lastVisible = visible; // the server switched tabs: follow it
      this.selectedTab = visible;
    }
    if (!session.pages.has(this.selectedTab)) this.selectedTab = visible;
    for (const [pid, tab] of this.tabs) {
      if (!session.pages.has(pid)) { tab.node.remove(); this.tabs.delete(pid); }
    }
    pages.forEach((page, index) => {
      const tab = this.tabs.get(page.id) ?? this.createTab(session.id, page);
      const selected = page.id === this.selectedTab;
      setText(tab.label, page.title || page.url || '(untitled)');
      setHidden(tab.mark, !page.dialog);
      setClass(tab.node, 'active', page.visible);
      setClass(tab.node, 'selected', selected);
      tab.tab.setAttribute('aria-selected', String(selected));
      tab.tab.tabIndex = selected ? 0 : -1;
      tab.tab.title = page.visible ? 'the active tab' : 'a background tab';
      if (strip.children[index] !== tab.node) strip.insertBefore(tab.node, strip.children[index] ?? null);
      const card = this.cards.get(page.id);
      card.node.setAttribute('role', 'tabpanel');
      card.node.id = `panel-${page.id}`;
      setClass(card.node, 'is-top', false);
      card.place({ depth: 0, shown: selected });
      if (area.children[index] !== card.node) area.insertBefore(card.node, area.children[index] ?? null);
    });
  }

  createTab(sid, page) {
    const label = h('span', { class: 'tab-label' });
    const mark = h('span', { class: 'tab-dialog', text: '!', title: 'dialog waiting', hidden: true });
    const tab = h('button', { class: 'tab', type: 'button', data: { pageId: page.id },
      attrs: { role: 'tab', 'aria-controls': `panel-${page.id}` },
      on: { click: () => this.selectTab(page.id) } }, mark, label);
    const close = page.role === 'popup'
      ? h('button', { class: 'tab-close operator-only', type: 'button', text: '×', title: `Close popup ${page.id}`,
        attrs: { 'aria-label': `Close popup ${page.id}` },
        on: { click: () => this.cards.get(page.id)?.closePage() } })
      : null;
    const node = h('div', { class: `tab-item role-${page.role}`, data: { pageId: page.id } }, tab, close);
    const entry = { node, tab, label, mark };
    this.tabs.set(page.id, entry);
    return entry;
  }

  selectTab(pid) {
    this.selectedTab = pid;
    this.draw();
    this.tabs.get(pid)?.tab.focus();
  }

  /** Left/Right/Home/End move between tabs (the WAI-ARIA tabs pattern). */
  tabKeys(event) {
    const ids = [...this.tabs.keys()];
    const index = ids.indexOf(this.selectedTab);
    const moves = { ArrowLeft: index - 1, ArrowRight: index + 1, Home: 0, End: ids.length - 1 };
    if (!(event.key in moves) || !event.target.classList.contains('tab')) return;
    event.preventDefault();
    const next = ids[(moves[event.key] + ids.length) % ids.length];
    if (next) this.selectTab(next);
  }

  togglePeek(pid) {
    if (this.peeked.has(pid)) this.peeked.delete(pid);
    else this.peeked.add(pid);
    this.draw();
  }

  async closeSession() {
    const r = this.refs;
    if (!this.confirmingClose) {
      this.confirmingClose = true;
      setText(r.closeSession, 'Click again to close every page');
      clearTimeout(this.confirmTimer);
      this.confirmTimer = setTimeout(() => {
        this.confirmingClose = false;
        setText(r.closeSession, 'Close session');
      }, 4000);
      return;
    }
    clearTimeout(this.confirmTimer);
    this.confirmingClose = false;
    r.closeSession.disabled = true;
    r.error.hidden = true;
    try {
      await this.api.closeSession(this.sessionId);
    } catch (error) {
      r.error.textContent = `Closing the session failed: ${error.message}`;
      r.error.hidden = false;
    } finally {
      r.closeSession.disabled = false;
      setText(r.closeSession, 'Close session');
    }
  }
}
