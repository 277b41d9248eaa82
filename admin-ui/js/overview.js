// The sessions overview: one card per session, patched in place. Only sessions that changed since the last
// frame are touched, and only the text that differs is written, so hundreds of sessions stay cheap.

import { h, setText, setClass, setHidden, formatAge } from './dom.js';
import { Store } from './store.js';

export class OverviewView {
  constructor(root, store) {
    this.root = root;
    this.store = store;
    this.list = root.querySelector('#session-list');
    this.count = root.querySelector('#session-count');
    this.empty = root.querySelector('#no-sessions');
    this.filterInput = root.querySelector('#filter');
    /** @type {Map<string, {node: HTMLElement, refs: object, haystack: string}>} */
    this.cards = new Map();
    this.filter = '';
    this.pending = { all: true, ids: new Set() };
    this.ageTick = false;
    this.filterInput.addEventListener('input', () => {
      this.filter = this.filterInput.value.trim().toLowerCase();
      this.filterChanged = true;
      this.requestRender?.();
    });
  }

  /** Changes seen while the overview was not shown: drawn when it is. */
  remember(changes) {
    if (changes.all) this.pending.all = true;
    for (const id of changes.ids) this.pending.ids.add(id);
  }

  render(changes) {
    this.remember(changes);
    const { all, ids } = this.pending;
    this.pending = { all: false, ids: new Set() };
    const sessions = this.store.sessions;
    if (all) {
      for (const id of this.cards.keys()) if (!sessions.has(id)) this.removeCard(id);
      const fragment = document.createDocumentFragment();
      for (const session of sessions.values()) {
        const card = this.cards.get(session.id) ?? this.createCard(session);
        this.updateCard(card, session);
        fragment.append(card.node); // also puts existing cards in creation order
      }
      this.list.append(fragment);
    } else {
      for (const id of ids) {
        const session = sessions.get(id);
        if (!session) { this.removeCard(id); continue; }
        let card = this.cards.get(id);
        if (!card) {
          card = this.createCard(session);
          this.list.append(card.node);
        }
        this.updateCard(card, session);
      }
    }
    if (this.ageTick) {
      const now = Date.now();
      for (const [id, card] of this.cards) setText(card.refs.age, formatAge(sessions.get(id)?.createdAt, now));
      this.ageTick = false;
    }
    if (this.filterChanged || all) {
      for (const card of this.cards.values()) this.applyFilter(card);
      this.filterChanged = false;
    }
    let shown = 0;
    for (const card of this.cards.values()) if (!card.node.hidden) shown += 1;
    const total = this.cards.size;
    setText(this.count, this.filter ? `${shown} of ${total} sessions match` : `${total} session${total === 1 ? '' : 's'}`);
    setHidden(this.empty, total !== 0);
  }

  createCard(session) {
    const refs = {
      link: h('a', { class: 'session-link', href: `#/sessions/${encodeURIComponent(session.id)}` }),
      id: h('span', { class: 'session-id' }),
      engine: h('span', { class: 'badge engine' }),
      mode: h('span', { class: 'badge mode' }),
      unresponsive: h('span', { class: 'badge unresponsive-badge', text: 'not responding', hidden: true }),
      title: h('p', { class: 'page-title' }),
      url: h('p', { class: 'url' }),
      pages: h('dd', { class: 'pages-open' }),
      dialogs: h('dd', { class: 'dialogs' }),
      age: h('dd', { class: 'age' }),
    };
    const node = h('li', { class: 'session-card', data: { sessionId: session.id } },
      h('div', { class: 'card-head' }, h('h3', {}, refs.link), refs.id),
      h('div', { class: 'badges' }, refs.engine, refs.mode, refs.unresponsive),
      refs.title, refs.url,
      h('dl', { class: 'facts' },
        h('div', {}, h('dt', { text: 'Pages' }), refs.pages),
        h('div', { class: 'dialog-fact' }, h('dt', { text: 'Dialogs' }), refs.dialogs),
        h('div', {}, h('dt', { text: 'Age' }), refs.age)));
    const card = { node, refs, haystack: '' };
    this.cards.set(session.id, card);
    return card;
  }

  updateCard(card, session) {
    const { refs } = card;
    const main = Store.mainPage(session);
    const dialogs = Store.pendingDialogs(session);
    setText(refs.link, session.label || session.id);
    setText(refs.id, session.label ? session.id : '');
    setText(refs.engine, session.engine);
    setText(refs.mode, session.popupMode);
    setText(refs.title, main?.title || '(untitled)');
    setText(refs.url, main?.url || '');
    setText(refs.pages, session.pages.size);
    setText(refs.dialogs, dialogs ? `${dialogs} pending` : 'none');
    setClass(card.node, 'has-dialog', dialogs > 0);
    let unresponsive = false;
    for (const page of session.pages.values()) if (page.responsive === false) unresponsive = true;
    setHidden(refs.unresponsive, !unresponsive);
    setText(refs.age, formatAge(session.createdAt));
    const words = [session.label, session.id];
    for (const page of session.pages.values()) words.push(page.url, page.title);
    card.haystack = words.join('\n').toLowerCase();
    this.applyFilter(card);
  }

  applyFilter(card) {
    setHidden(card.node, this.filter !== '' && !card.haystack.includes(this.filter));
  }

  removeCard(id) {
    const card = this.cards.get(id);
    if (!card) return;
    card.node.remove();
    this.cards.delete(id);
  }
}
