// One line of text per stream event, for the timeline. Pure functions: no DOM, no state.

const QUIET_CHANGES = new Set(['isLoading', 'estimatedProgress', 'canGoBack', 'canGoForward', 'scroll']);

function clip(text, max = 160) {
  const s = String(text ?? '');
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}

function describeChanges(changes) {
  const parts = [];
  for (const [key, value] of Object.entries(changes)) {
    switch (key) {
      case 'title': parts.push(`title “${clip(value, 80)}”`); break;
      case 'url': parts.push(`url ${clip(value, 100)}`); break;
      case 'navigation':
        if (value) parts.push(`navigation #${value.id} ${value.event}${value.error ? ` (${clip(value.error, 80)})` : ''}`);
        break;
      case 'visible': parts.push(value ? 'now visible' : 'now covered'); break;
      case 'themeColor': parts.push(`theme colour ${value ?? 'none'}`); break;
      case 'hasOnlySecureContent': parts.push(value ? 'secure content only' : 'not only secure content'); break;
      case 'dialog': break; // dialog.opened / dialog.closed say it better
      case 'crashed': if (value) parts.push('crashed'); break;
      case 'hasOpener': parts.push(value ? 'window.opener set' : 'window.opener null'); break;
      case 'windowFeatures': parts.push('window features changed'); break;
      case 'responsive': parts.push(value === false ? 'NOT RESPONDING (busy script)' : 'responding again'); break;
      case 'truncated': if (value) parts.push('title or URL truncated to the server’s limit'); break;
      default: if (!QUIET_CHANGES.has(key)) parts.push(`${key} changed`);
    }
  }
  return parts.join(', ');
}

/** What blocked a navigation: a string, or the object `{kind: rule|default|notDisplayable, …}`. */
export function describeBlock(rule) {
  if (!rule || typeof rule !== 'object') return clip(rule ?? '?', 80);
  switch (rule.kind) {
    case 'rule': {
      const match = [rule.scheme && `scheme ${clip(rule.scheme, 30)}`, rule.host && `host ${clip(rule.host, 80)}`,
        rule.pathPrefix && `path ${clip(rule.pathPrefix, 80)}`].filter(Boolean).join(', ');
      return `rule #${rule.index}: ${rule.action ?? 'block'} ${match || 'everything'}`;
    }
    case 'default': return `no rule matched, default ${rule.action ?? 'block'}`;
    case 'notDisplayable': return `cannot be shown (${clip(rule.mimeType, 60)})`;
    default: return clip(rule.kind ?? '?', 60);
  }
}

/**
 * The timeline line for an event, or null for events not worth a line (progress ticks).
 * @returns {{pageId: string|null, text: string, kind: string}|null}
 */
export function describeEvent(event) {
  const pageId = event.pageId ?? null;
  switch (event.type) {
    case 'session.created':
      return { pageId, kind: 'session', text: `session created (${event.session?.popupMode ?? '?'})` };
    case 'session.closed':
      return { pageId, kind: 'session', text: `session closed${event.reason ? ` (reason: ${clip(event.reason, 40)})` : ''}` };
    case 'page.opened': {
      const page = event.page ?? {};
      const from = event.openerId ? ` by ${event.openerId}` : '';
      return { pageId, kind: 'open', text: `${pageId} opened${from}: ${clip(page.url || 'about:blank', 100)}` };
    }
    case 'page.updated': {
      const text = describeChanges(event.changes ?? {});
      const kind = event.changes?.responsive === false ? 'warn' : 'update';
      return text ? { pageId, kind, text: `${pageId}: ${text}` } : null;
    }
    case 'page.closed':
      return { pageId, kind: 'close', text: `${pageId} closed (reason: ${event.reason}${event.forced ? ', forced: it did not agree to close' : ''})` };
    case 'page.closeRefused':
      return { pageId, kind: 'warn', text: `${pageId} asked to close; refused (${clip(event.reason, 80)})` };
    case 'dialog.opened': {
      const d = event.dialog ?? {};
      return { pageId, kind: 'dialog', text: `${pageId}: ${d.kind} “${clip(d.message, 100)}”` };
    }
    case 'dialog.closed': {
      const a = event.answer ?? {};
      const answer = a.accept ? (a.text !== null && a.text !== undefined ? `accepted with “${clip(a.text, 60)}”` : 'accepted') : 'dismissed';
      return { pageId, kind: 'dialog', text: `${pageId}: ${event.kind ?? 'dialog'} ${answer}${event.by ? ` by ${event.by}` : ''}` };
    }
    case 'popup.blocked': {
      const count = Number(event.count) > 1 ? Number(event.count) : 1;
      const what = count > 1 ? `${count} popups blocked` : 'popup blocked';
      return { pageId, kind: 'warn', text: `${pageId}: ${what} (${clip(event.reason, 40)}): ${clip(event.url, 100)}` };
    }
    case 'dialog.suppressed': {
      const count = Number(event.count) || 0;
      return { pageId, kind: 'warn',
        text: `${pageId}: ${count} ${clip(event.kind ?? 'dialog', 20)} dialog${count === 1 ? '' : 's'} suppressed (too many: answered at once by dismissing)` };
    }
    case 'navigation.blocked':
      return { pageId, kind: 'warn', text: `${pageId}: navigation blocked (${describeBlock(event.rule)}): ${clip(event.url, 100)}` };
    case 'page.crashed':
      return { pageId, kind: 'warn', text: `${pageId} crashed${event.reason ? ` (${clip(event.reason, 80)})` : ''}` };
    default:
      return { pageId, kind: 'other', text: clip(event.type, 60) };
  }
}
