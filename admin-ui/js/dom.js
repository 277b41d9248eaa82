// DOM helpers. Every string that can come from a page (titles, URLs, dialog messages) goes into the document
// through textContent or a DOM property, never through HTML parsing: there is no innerHTML in the dashboard.

/**
 * Creates an element. `props`: `class`, `text` (textContent), `attrs` (setAttribute), `data` (dataset),
 * `on` (event listeners), and any other key is set as a DOM property (`type`, `value`, `hidden`, …).
 */
export function h(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined || value === null) continue;
    switch (key) {
      case 'class': node.className = value; break;
      case 'text': node.textContent = String(value); break;
      case 'attrs': for (const [name, v] of Object.entries(value)) node.setAttribute(name, String(v)); break;
      case 'data': Object.assign(node.dataset, value); break;
      case 'on': for (const [type, fn] of Object.entries(value)) node.addEventListener(type, fn); break;
      default: node[key] = value;
    }
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** Sets a node's text only when it differs, so unchanged updates cost no layout. */
export function setText(node, value) {
  const text = value === null || value === undefined ? '' : String(value);
  if (node.textContent !== text) node.textContent = text;
}

/** Toggles a class only when it differs. */
export function setClass(node, name, on) {
  if (node.classList.contains(name) !== Boolean(on)) node.classList.toggle(name, Boolean(on));
}

export function setHidden(node, hidden) {
  if (node.hidden !== Boolean(hidden)) node.hidden = Boolean(hidden);
}

/** Whether a URL may be shown as a link: absolute http(s) only (no javascript:, data:, about:, …). */
export function isWebURL(url) {
  if (typeof url !== 'string' || !/^https?:\/\//i.test(url)) return false;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:';
  } catch {
    return false;
  }
}

/** A URL as a link (http(s) only, opened in a new tab without opener or referrer) or as plain text. */
export function urlNode(url, className = 'url') {
  const text = url || '(no URL)';
  if (isWebURL(url)) {
    return h('a', { class: className, href: url, text, target: '_blank', rel: 'noopener noreferrer' });
  }
  return h('span', { class: className, text });
}

/** Replaces `slot`'s content with a URL node when the URL changed. */
export function setURL(slot, url, className = 'url') {
  if (slot.dataset.url === (url ?? '') && slot.firstChild) return;
  slot.dataset.url = url ?? '';
  slot.replaceChildren(urlNode(url, className));
}

/** "12 s", "4 min", "3 h", "2 d". */
export function formatAge(createdAt, now = Date.now()) {
  const started = Date.parse(createdAt);
  if (Number.isNaN(started)) return '?';
  const seconds = Math.max(0, Math.floor((now - started) / 1000));
  if (seconds < 60) return `${seconds} s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min`;
  if (seconds < 86400) return `${Math.floor(seconds / 3600)} h`;
  return `${Math.floor(seconds / 86400)} d`;
}

export function formatTime(ms) {
  const d = new Date(ms);
  return [d.getHours(), d.getMinutes(), d.getSeconds()].map((n) => String(n).padStart(2, '0')).join(':');
}

/** A `#rrggbb` colour, or null for anything else (never handed to CSS unchecked). */
export function safeColor(value) {
  return typeof value === 'string' && /^#[0-9a-f]{6}$/i.test(value) ? value : null;
}
