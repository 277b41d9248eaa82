// One page of a session: its live state, its pending dialog, its thumbnail and its controls. Built once per
// page and patched on every change; every page-derived string is set as text.

import { h, setText, setClass, setHidden, setURL, safeColor } from './dom.js';
import { dialogForm } from './dialogs.js';

const FEATURE_FLAGS = [
  ['toolbarVisible', 'toolbar'], ['statusbarVisible', 'status bar'], ['scrollbarsVisible', 'scrollbars'],
  ['menubarVisible', 'menu bar'], ['locationbarVisible', 'location bar'], ['resizable', 'resizable'],
];

export function describeFeatures(features) {
  if (!features) return 'none (not opened by window.open with features)';
  const parts = [];
  if (features.width !== null && features.width !== undefined) parts.push(`${features.width}×${features.height ?? '?'}`);
  if (features.x !== null && features.x !== undefined) parts.push(`at ${features.x},${features.y ?? '?'}`);
  const off = FEATURE_FLAGS.filter(([key]) => features[key] === false).map(([, name]) => name);
  if (off.length) parts.push(`without ${off.join(', ')}`);
  if (features.fullscreen) parts.push('fullscreen');
  return parts.join('; ') || 'default';
}

function describeNavigation(navigation) {
  if (!navigation) return 'none yet';
  return `#${navigation.id} ${navigation.event}${navigation.error ? `: ${navigation.error}` : ''}`;
}

export class PageCard {
  /**
   * @param {object} o
   * @param {string} o.sessionId
   * @param {object} o.page
   * @param {object} o.api            api.js
   * @param {object} o.thumbnails     a Thumbnails
   * @param {(pid: string) => void} o.onPeek  stacked mode: show or hide a covered card's details
   */
  constructor({ sessionId, page, api, thumbnails, onPeek }) {
    this.sessionId = sessionId;
    this.pageId = page.id;
    this.api = api;
    this.thumbnails = thumbnails;
    this.navigationKey = null;
    this.dialogId = null;
    /** A dialog waits somewhere in the session: its web process is paused and cannot take screenshots. */
    this.paused = false;
    this.thumbnailWanted = true;
    this.build(page, onPeek); // the owner calls update() next, with the session's state
  }

  build(page, onPeek) {
    const pid = page.id;
    const r = this.refs = {};
    r.swatch = h('span', { class: 'swatch', attrs: { 'aria-hidden': 'true' } });
    r.role = h('span', { class: 'badge role', text: page.role === 'main' ? 'main' : 'popup' });
    r.pid = h('span', { class: 'page-id', text: pid });
    r.title = h('h3', { class: 'page-title', id: `page-${pid}-title`, tabIndex: -1 });
    r.where = h('span', { class: 'badge where' });
    r.dialogBadge = h('span', { class: 'badge dialog-badge', text: 'dialog waiting', hidden: true });
    r.crashBadge = h('span', { class: 'badge crash-badge', text: 'crashed', hidden: true });
    r.unresponsive = h('span', { class: 'badge unresponsive-badge', text: 'not responding', hidden: true,
      title: 'the page is busy (its script does not yield): it does not answer until it stops',
      attrs: { role: 'status' } });
    r.truncated = h('span', { class: 'badge truncated-badge', text: 'truncated', hidden: true,
      title: 'the page’s title or URL is longer than the server keeps: shown cut' });
    r.peek = h('button', { class: 'peek', type: 'button', text: 'Details', hidden: true,
      attrs: { 'aria-expanded': 'false' }, on: { click: () => onPeek(pid) } });
    r.close = page.role === 'popup'
      ? h('button', { class: 'close-page operator-only', type: 'button', text: '×', title: `Close popup ${pid}`,
        attrs: { 'aria-label': `Close popup ${pid}` }, on: { click: () => this.closePage() } })
      : null;
    r.dialogSlot = h('div', { class: 'dialog-slot' });
    r.url = h('p', { class: 'page-url' });
    r.progress = h('progress', { class: 'progress', max: 1, value: 0, attrs: { 'aria-label': `Loading progress of ${pid}` } });
    r.progressText = h('span', { class: 'progress-text' });
    r.theme = h('span', { class: 'theme-text' });
    r.themeSwatch = h('span', { class: 'swatch', attrs: { 'aria-hidden': 'true' } });
    r.lock = h('span', { class: 'lock' });
    r.opener = h('span', { class: 'opener' });
    r.features = h('span', { class: 'features' });
    r.navigation = h('span', { class: 'navigation' });
    r.scroll = h('span', { class: 'scroll' });
    r.thumb = h('img', { class: 'thumb', alt: `Screenshot of page ${pid}`, hidden: true, decoding: 'async' });
    r.thumbNote = h('span', { class: 'thumb-note', text: 'Screenshot loading…' });
    r.refresh = h('button', { class: 'refresh-thumb', type: 'button', text: 'Refresh screenshot',
      on: { click: () => this.refreshThumbnail() } });
    r.navURL = h('input', { class: 'navigate-url', type: 'url', required: true, placeholder: 'https://…',
      attrs: { 'aria-label': `URL to open in ${pid}` }, on: { input: () => { r.navURL.dataset.edited = '1'; } } });
    r.back = h('button', { class: 'history-back', type: 'button', text: '← Back', disabled: true,
      attrs: { 'aria-label': `Back in ${pid}` }, on: { click: () => this.history('back', 'Going back') } });
    r.forward = h('button', { class: 'history-forward', type: 'button', text: 'Forward →', disabled: true,
      attrs: { 'aria-label': `Forward in ${pid}` }, on: { click: () => this.history('forward', 'Going forward') } });
    r.reload = h('button', { class: 'reload', type: 'button', text: 'Reload',
      on: { click: () => this.history('reload', 'Reloading') } });
    r.stop = h('button', { class: 'stop', type: 'button', text: 'Stop', disabled: true,
      on: { click: () => this.history('stop', 'Stopping') } });
    r.findText = h('input', { class: 'find-text', type: 'search', placeholder: 'Find in page', autocomplete: 'off',
      attrs: { 'aria-label': `Text to find in ${pid}` } });
    r.findCase = h('input', { class: 'find-case', type: 'checkbox', checked: true });
    r.findPrevious = h('button', { class: 'find-previous', type: 'button', text: '↑', title: 'Previous match',
      disabled: true, attrs: { 'aria-label': 'Previous match' }, on: { click: () => this.findStep('previous') } });
    r.findNext = h('button', { class: 'find-next', type: 'button', text: '↓', title: 'Next match',
      disabled: true, attrs: { 'aria-label': 'Next match' }, on: { click: () => this.findStep('next') } });
    r.findClear = h('button', { class: 'find-clear', type: 'button', text: 'Clear', disabled: true,
      on: { click: () => this.clearFind() } });
    r.findCount = h('output', { class: 'find-count', attrs: { 'aria-live': 'polite' } });
    r.error = h('p', { class: 'page-error error', hidden: true, attrs: { role: 'alert' } });
    const fact = (name, ...value) => h('div', {}, h('dt', { text: name }), h('dd', {}, ...value));
    r.body = h('div', { class: 'page-body' },
      h('div', { class: 'page-details' },
        r.url,
        h('div', { class: 'progress-row' }, r.progress, r.progressText),
        h('dl', { class: 'page-facts' },
          fact('Theme colour', r.themeSwatch, r.theme),
          fact('Content', r.lock),
          fact('Opener', r.opener),
          fact('Window features', r.features),
          fact('Navigation', r.navigation),
          r.scrollFact = fact('Scroll', r.scroll)),
        h('form', { class: 'navigate-form operator-only', on: { submit: (e) => { e.preventDefault(); this.navigate(); } } },
          h('div', { class: 'history-bar', attrs: { role: 'group', 'aria-label': `History of ${pid}` } },
            r.back, r.forward, r.reload, r.stop),
          r.navURL, h('button', { type: 'submit', text: 'Go' })),
        h('form', { class: 'find-form operator-only', attrs: { role: 'search', 'aria-label': `Find in ${pid}` },
          on: { submit: (e) => { e.preventDefault(); this.find(); } } },
        r.findText,
        h('label', { class: 'find-case-label' }, r.findCase, ' case-insensitive'),
        h('button', { class: 'find-submit', type: 'submit', text: 'Find' }),
        r.findPrevious, r.findNext, r.findClear, r.findCount),
        r.error),
      h('figure', { class: 'thumb-figure' }, r.thumb, h('figcaption', {}, r.thumbNote, r.refresh)));
    this.node = h('article', { class: `page-card role-${page.role}`, data: { pageId: pid },
      attrs: { 'aria-labelledby': r.title.id } },
    h('header', { class: 'page-head' }, r.swatch, r.role, r.title, r.pid, r.where, r.unresponsive, r.dialogBadge, r.crashBadge, r.truncated, r.peek, r.close),
    r.dialogSlot,
    r.body);
  }

  /**
   * Draws the page's current state. `paused`: a dialog waits in this page's session, so the pages sharing its
   * web process cannot be screenshotted until it is answered (the request would hang).
   */
  update(page, { paused = false } = {}) {
    const r = this.refs;
    setText(r.title, page.title || '(untitled)');
    setURL(r.url, page.url);
    const color = safeColor(page.themeColor);
    for (const swatch of [r.swatch, r.themeSwatch]) {
      if (swatch.style.backgroundColor !== (color ?? '')) swatch.style.backgroundColor = color ?? '';
      setClass(swatch, 'none', !color);
    }
    setText(r.theme, color ?? 'none');
    const progress = Math.max(0, Math.min(1, Number(page.estimatedProgress) || 0));
    if (r.progress.value !== progress) r.progress.value = progress;
    setClass(r.progress, 'loading', page.isLoading);
    setText(r.progressText, page.isLoading ? `Loading ${Math.round(progress * 100)} %` : 'Loaded');
    setText(r.lock, page.hasOnlySecureContent ? '✔ only secure content' : '✘ not only secure content (http or mixed)');
    setClass(r.lock, 'secure', page.hasOnlySecureContent);
    setText(r.opener, page.role === 'main' ? '— (main page)'
      : `${page.openerId ?? '?'}, window.opener ${page.hasOpener ? 'set' : 'null (noopener)'}`);
    setText(r.features, describeFeatures(page.windowFeatures));
    setText(r.navigation, describeNavigation(page.navigation));
    const scroll = page.scroll;
    setHidden(r.scrollFact, !scroll);
    if (scroll) setText(r.scroll, `${Math.round(scroll.x)}, ${Math.round(scroll.y)} of ${Math.round(scroll.contentWidth)}×${Math.round(scroll.contentHeight)}`);
    setHidden(r.crashBadge, !page.crashed);
    const unresponsive = page.responsive === false;
    setHidden(r.unresponsive, !unresponsive);
    setClass(this.node, 'unresponsive', unresponsive);
    setHidden(r.truncated, !page.truncated);
    r.back.disabled = !page.canGoBack;
    r.forward.disabled = !page.canGoForward;
    r.stop.disabled = !page.isLoading;
    setHidden(r.dialogBadge, !page.dialog);
    setClass(this.node, 'has-dialog', Boolean(page.dialog));
    setClass(this.node, 'is-visible', page.visible);
    setText(r.where, page.visible ? 'visible' : 'covered');
    if (!r.navURL.matches(':focus') && !r.navURL.dataset.edited) r.navURL.value = page.url ?? '';
    this.showDialog(page.dialog);
    const nav = page.navigation;
    const key = nav ? `${nav.id}:${nav.event}` : null;
    if (key !== this.navigationKey) {
      if (nav && this.navigationKey !== null && nav.id !== Number(this.navigationKey.split(':')[0])) this.findGone();
      const finishedNow = nav?.event === 'finished' && this.navigationKey !== null;
      this.navigationKey = key;
      if (finishedNow) this.thumbnailWanted = true;
    }
    this.page = page;
    const unpaused = this.paused && !paused;
    this.paused = paused;
    r.refresh.disabled = paused;
    if (paused) setText(r.thumbNote, 'Screenshot waits: a dialog is open in this session (its pages are paused)');
    else if (unpaused) this.thumbnailWanted = true;
    if (this.thumbnailWanted && !paused) this.refreshThumbnail();
  }

  showDialog(dialog) {
    const id = dialog?.id ?? null;
    if (id === this.dialogId) return;
    this.dialogId = id;
    this.refs.dialogSlot.replaceChildren(dialog
      ? dialogForm(dialog, (accept, text) => this.api.answerDialog(this.sessionId, dialog.id, accept, text))
      : '');
  }

  /**
   * Where the card sits: `covered` (stacked, under another page), `peeked` (covered but opened for reading),
   * `depth` (position in the stack) or `selected` (tabbed: the tab being shown).
   */
  place({ depth = 0, covered = false, peeked = false, shown = true }) {
    const r = this.refs;
    if (this.node.style.getPropertyValue('--depth') !== String(depth)) this.node.style.setProperty('--depth', String(depth));
    if (this.node.style.zIndex !== String(depth + 1)) this.node.style.zIndex = String(depth + 1);
    setClass(this.node, 'covered', covered);
    setClass(this.node, 'peeked', covered && peeked);
    setHidden(r.peek, !covered);
    r.peek.setAttribute('aria-expanded', String(covered && peeked));
    setText(r.peek, covered && peeked ? 'Hide details' : 'Details');
    setHidden(r.body, covered && !peeked);
    setHidden(this.node, !shown);
  }

  refreshThumbnail() {
    this.thumbnailWanted = false;
    if (this.paused) { this.thumbnailWanted = true; return; }
    this.thumbnails.request(this.sessionId, this.pageId, (url, error) => {
      const r = this.refs;
      if (url) {
        r.thumb.src = url;
        r.thumb.hidden = false;
        setText(r.thumbNote, `Screenshot ${new Date().toLocaleTimeString()}`);
      } else {
        setText(r.thumbNote, `No screenshot: ${error}`);
      }
    });
  }

  async run(what, action) {
    const r = this.refs;
    r.error.hidden = true;
    try {
      await action();
    } catch (error) {
      r.error.textContent = `${what} failed: ${error.message}`;
      r.error.hidden = false;
    }
  }

  /** Not `disabled` while closing: that would drop the keyboard focus before the card goes. */
  closePage() {
    if (this.closing) return;
    this.closing = true;
    this.refs.close?.setAttribute('aria-disabled', 'true');
    this.run('Closing the popup', () => this.api.closePage(this.sessionId, this.pageId)).finally(() => {
      this.closing = false;
      this.refs.close?.removeAttribute('aria-disabled');
    });
  }

  navigate() {
    const url = this.refs.navURL.value.trim();
    delete this.refs.navURL.dataset.edited;
    this.run('Navigating', () => this.api.navigate(this.sessionId, this.pageId, url));
  }

  /** back, forward, reload, stop. The buttons follow canGoBack/canGoForward/isLoading as the server reports them. */
  history(action, what) {
    this.run(what, () => this.api.history(this.sessionId, this.pageId, action));
  }

  find() {
    const r = this.refs;
    const text = r.findText.value;
    if (!text) { this.clearFind(); return; }
    const caseInsensitive = r.findCase.checked;
    setText(r.findCount, 'Finding…');
    this.run('Finding', async () => {
      try {
        const answer = await this.api.find(this.sessionId, this.pageId, text, caseInsensitive);
        this.showMatches(answer?.matches, text);
      } catch (error) {
        setText(r.findCount, '');
        throw error;
      }
    });
  }

  findStep(step) {
    this.run(step === 'next' ? 'Next match' : 'Previous match', async () => {
      const answer = await this.api.findStep(this.sessionId, this.pageId, step);
      this.showMatches(answer?.matches, this.findQuery);
    });
  }

  clearFind() {
    this.findGone();
    this.refs.findText.value = '';
    this.run('Clearing the search', () => this.api.clearFind(this.sessionId, this.pageId));
  }

  /** The count of the last search (`matches`, a number from the server). */
  showMatches(matches, query) {
    const r = this.refs;
    const n = Number.isFinite(matches) ? matches : 0;
    this.findQuery = query;
    setText(r.findCount, n === 0 ? 'no matches' : `${n} match${n === 1 ? '' : 'es'}`);
    r.findCount.dataset.matches = String(n);
    r.findNext.disabled = n === 0;
    r.findPrevious.disabled = n === 0;
    r.findClear.disabled = false;
  }

  /** The page navigated (its highlights went with it) or the search was cleared. */
  findGone() {
    const r = this.refs;
    setText(r.findCount, '');
    delete r.findCount.dataset.matches;
    r.findNext.disabled = true;
    r.findPrevious.disabled = true;
    r.findClear.disabled = true;
  }

  focusTitle() {
    this.refs.title.focus();
  }

  destroy() {
    this.thumbnails.forget(this.pageId);
    this.node.remove();
  }
}
