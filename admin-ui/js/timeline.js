// A session's timeline, newest first and capped. New entries are prepended; the list is rebuilt only when
// another session is shown.

import { h, formatTime } from './dom.js';
import { TIMELINE_CAP } from './store.js';

export class TimelineView {
  constructor(list) {
    this.list = list;
    this.sessionId = null;
    this.shownN = 0;
    this.shownCount = 0;
  }

  static entry(item) {
    return h('li', { class: `tl-${item.kind}`, data: { seq: item.seq ?? '', type: item.type } },
      h('time', { text: formatTime(item.at) }),
      h('span', { class: 'tl-seq', text: item.seq !== undefined ? `#${item.seq}` : '' }),
      h('span', { class: 'tl-text', text: item.text }));
  }

  /** Shows `timeline` (oldest first, as the store keeps it) for a session. */
  render(sessionId, timeline) {
    if (sessionId !== this.sessionId) {
      this.sessionId = sessionId;
      this.shownN = 0;
      this.shownCount = 0;
      this.list.replaceChildren();
    }
    const fresh = [];
    for (let i = timeline.length - 1; i >= 0 && fresh.length < TIMELINE_CAP; i -= 1) {
      if (timeline[i].n <= this.shownN) break;
      fresh.push(timeline[i]);
    }
    if (!fresh.length) return;
    const fragment = document.createDocumentFragment();
    for (const item of fresh) fragment.append(TimelineView.entry(item)); // newest first
    this.list.prepend(fragment);
    this.shownN = fresh[0].n;
    this.shownCount += fresh.length;
    while (this.shownCount > TIMELINE_CAP) {
      this.list.lastElementChild?.remove();
      this.shownCount -= 1;
    }
  }
}
