// The demo's popup: it talks to its opener through window.opener.postMessage and can close itself.
const state = document.getElementById('opener-state');
state.textContent = window.opener ? 'window.opener is set: this popup can talk to the checkout page.'
                                  : 'No window.opener (opened with noopener or from a target=_blank link).';

if (window.opener) window.opener.postMessage({ from: 'payment popup', ready: true }, '*');

document.getElementById('approve').addEventListener('click', () => {
  if (window.opener) window.opener.postMessage({ from: 'payment popup', approved: true }, '*');
});
document.getElementById('nested').addEventListener('click', () => { window.open('popup.html?via=nested', '_blank'); });
document.getElementById('close').addEventListener('click', () => window.close());
