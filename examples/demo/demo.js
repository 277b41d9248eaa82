// The demo's main page. On load it opens a payment popup and asks a confirm, so a newcomer sees a popup and
// a pending dialog at once; the buttons repeat each feature.
const status = document.getElementById('status');
const messages = document.getElementById('messages');

function say(text) { status.textContent = text; }

function openPopup() {
  const popup = window.open('popup.html?via=window.open', 'payment', 'width=480,height=640');
  say(popup ? 'Payment popup opened.' : 'The popup was blocked.');
  return popup;
}

window.addEventListener('message', (event) => {
  const item = document.createElement('li');
  item.textContent = `${new Date().toLocaleTimeString()}: ${JSON.stringify(event.data)}`;
  messages.append(item);
  say('The popup said: ' + JSON.stringify(event.data));
});

document.getElementById('open-popup').addEventListener('click', openPopup);
document.getElementById('alert').addEventListener('click', () => { alert('This is an alert.'); say('The alert was answered.'); });
document.getElementById('confirm').addEventListener('click', () => { say('confirm() answered ' + confirm('Proceed to payment?')); });
document.getElementById('prompt').addEventListener('click', () => { say('prompt() answered ' + JSON.stringify(prompt('Your name?', 'Ada'))); });

window.addEventListener('load', () => {
  openPopup();
  // Give the popup a moment to appear, then wait on a question.
  setTimeout(() => { say('confirm() answered ' + confirm('Keep the payment popup open?')); }, 500);
});
