// A pending JavaScript dialog on its page: alert → OK; confirm → OK / Cancel; prompt → a text field with the
// page's default text, Submit / Cancel; beforeunload → Leave / Stay. The page's script waits until the answer
// goes through the API. The message is page-derived: it is shown as text only.

import { h } from './dom.js';

const LABELS = {
  alert: { title: 'Alert', accept: 'OK', dismiss: null },
  confirm: { title: 'Confirm', accept: 'OK', dismiss: 'Cancel' },
  prompt: { title: 'Prompt', accept: 'Submit', dismiss: 'Cancel' },
  beforeunload: { title: 'Leave page?', accept: 'Leave', dismiss: 'Stay' },
};

/**
 * Builds the dialog's form. `answer(accept, text)` returns a promise; while it runs the buttons are disabled,
 * and a failure is shown under them. The element stays until the server says the dialog closed.
 */
export function dialogForm(dialog, answer) {
  const labels = LABELS[dialog.kind] ?? LABELS.alert;
  const headingId = `dialog-${dialog.id}-title`;
  const input = dialog.kind === 'prompt'
    ? h('input', { class: 'dialog-input operator-only', type: 'text', value: dialog.defaultText ?? '', autocomplete: 'off',
      attrs: { 'aria-label': 'Answer to the prompt' } })
    : null;
  const accept = h('button', { class: 'dialog-accept primary', type: 'submit', text: labels.accept });
  const dismiss = labels.dismiss ? h('button', { class: 'dialog-dismiss', type: 'button', text: labels.dismiss }) : null;
  const error = h('p', { class: 'dialog-error error', hidden: true, attrs: { role: 'alert' } });
  const form = h('form', {
    class: `dialog dialog-${dialog.kind}`,
    data: { dialogId: dialog.id },
    attrs: { 'aria-labelledby': headingId },
  },
  h('p', { class: 'dialog-kind', id: headingId, text: `${labels.title} (${dialog.id}) is waiting for an answer` }),
  h('p', { class: 'dialog-message', text: dialog.message ?? '' }),
  dialog.truncated ? h('p', { class: 'dialog-truncated muted', text: '(the message was longer: cut to the server’s limit)' }) : null,
  dialog.kind === 'prompt' ? h('p', { class: 'dialog-default viewer-only', text: `Default text: ${dialog.defaultText ?? ''}` }) : null,
  input,
  h('div', { class: 'dialog-buttons operator-only' }, accept, dismiss),
  h('p', { class: 'dialog-viewer-note viewer-only muted', text: 'An operator answers it (this dashboard is read-only).' }),
  error);

  const send = async (ok) => {
    for (const button of form.querySelectorAll('button')) button.disabled = true;
    error.hidden = true;
    try {
      await answer(ok, ok && input ? input.value : undefined);
      form.classList.add('answered');
    } catch (failure) {
      error.textContent = `Could not answer: ${failure.message}`;
      error.hidden = false;
      for (const button of form.querySelectorAll('button')) button.disabled = false;
    }
  };
  form.addEventListener('submit', (event) => { event.preventDefault(); send(true); });
  dismiss?.addEventListener('click', () => send(false));
  form.addEventListener('keydown', (event) => {
    if (event.key === 'Escape' && dismiss) { event.preventDefault(); send(false); }
  });
  return form;
}
