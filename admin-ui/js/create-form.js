// The create-session form (its fields are in index.html): POST /api/sessions, then open the new session.

export function setUpCreateForm(form, api) {
  const status = form.querySelector('.form-status');
  const submit = form.querySelector('button[type=submit]');
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const data = new FormData(form);
    const body = { url: String(data.get('url')).trim() };
    for (const name of ['label', 'popupMode', 'dialogPolicy', 'popupPolicy', 'userAgentSuffix']) {
      const value = String(data.get(name) ?? '').trim();
      if (value) body[name] = value;
    }
    submit.disabled = true;
    status.className = 'form-status';
    status.textContent = 'Creating…';
    try {
      const session = await api.createSession(body);
      status.textContent = `Created ${session.id}.`;
      form.reset();
      location.hash = `#/sessions/${encodeURIComponent(session.id)}`;
    } catch (error) {
      status.className = 'form-status error';
      status.textContent = `Could not create the session: ${error.message}`;
    } finally {
      submit.disabled = false;
    }
  });
}
