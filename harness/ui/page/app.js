// The explorer page: a client-side route (#/block/<height|hash>, #/tx/<hash>, #/token/<ticker>,
// #/wallet/<name>, #/blocks/<top>, #/metrics; the main page otherwise) says what to ask the harness for, and
// the answer is drawn every second. The search box asks the harness which page a height, hash,
// address, ticker or wallet name is on; the form on the main page registers an app's wallet.
import { ui } from './dom.js';
import { drawHome } from './home.js';
import { metricsView } from './metrics.js';
import { blocksView, blockView, problemView, tokenView, txView, walletView } from './views.js';

const POLL_MS = 1000;

const ROUTES = [
  [/^#\/blocks(?:\/(\d+))?$/, (m) => [`api/blocks${m[1] ? `?top=${m[1]}` : ''}`, blocksView, 'blocks']],
  [/^#\/block\/([^/]+)$/, (m) => [`api/block/${m[1]}`, blockView, 'block']],
  [/^#\/tx\/([^/]+)$/, (m) => [`api/tx/${m[1]}`, txView, 'tx']],
  [/^#\/token\/([^/]+)$/, (m) => [`api/token/${m[1]}`, tokenView, 'token']],
  [/^#\/wallet\/([^/]+)$/, (m) => [`api/wallet/${m[1]}`, walletView, 'wallet']],
  [/^#\/metrics$/, () => ['api/metrics', metricsView, 'metrics']],
];

/** What the current route asks for, how it is drawn, and the page's name (the main page: home). */
function current() {
  for (const [re, make] of ROUTES) {
    const m = re.exec(location.hash);
    if (m) return make(m);
  }
  return ['api/state', drawHome, 'home'];
}

let timer;
let lastText;
/** The chain's decimals: the main page's picture says; another page asks for it once. */
let decimalsKnown = false;

function show(page, text, draw, ok) {
  const home = page === 'home';
  document.getElementById('home').hidden = !home;
  document.getElementById('view').hidden = home;
  if (!home) document.getElementById('problems').hidden = true;
  if (text === lastText) return;
  lastText = text;
  const body = JSON.parse(text);
  if (!ok && home) throw new Error(body.error);
  if (!ok) document.getElementById('view').replaceChildren(...problemView(body.error));
  else if (home) {
    ui.decimals = body.decimals;
    decimalsKnown = true;
    draw(body);
  } else document.getElementById('view').replaceChildren(...draw(body));
  document.body.dataset.page = ok ? page : `${page}-not-found`;
  document.body.dataset.route = location.hash || '#/';
}

async function poll() {
  clearTimeout(timer);
  const [api, draw, page] = current();
  const asked = location.hash;
  try {
    if (page !== 'home' && !decimalsKnown) {
      const s = await fetch('api/state', { cache: 'no-store' });
      if (s.ok) [ui.decimals, decimalsKnown] = [(await s.json()).decimals, true];
    }
    const res = await fetch(api, { cache: 'no-store' });
    const text = await res.text();
    if (location.hash !== asked) return;
    if (res.status >= 500) throw new Error(JSON.parse(text).error || `HTTP ${res.status}`);
    show(page, text, draw, res.ok);
  } catch (err) {
    const problems = document.getElementById('problems');
    problems.hidden = false;
    problems.textContent = `the harness did not answer: ${err.message} (is saltnet up still running?)`;
  } finally {
    if (location.hash === asked) timer = setTimeout(poll, POLL_MS);
  }
}

async function post(path, method, body) {
  const res = await fetch(path, {
    method,
    headers: body ? { 'content-type': 'application/json' } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  const answer = await res.json();
  if (!res.ok) throw new Error(answer.error || `HTTP ${res.status}`);
  return answer;
}

document.getElementById('search').addEventListener('submit', async (e) => {
  e.preventDefault();
  const out = document.getElementById('search-result');
  const q = new FormData(e.target).get('q');
  try {
    const res = await fetch(`api/search?q=${encodeURIComponent(q)}`, { cache: 'no-store' });
    const answer = await res.json();
    if (!res.ok) throw new Error(answer.error);
    out.textContent = '';
    location.hash = answer.route;
  } catch (err) {
    out.textContent = err.message;
  }
});

document.getElementById('add-wallet').addEventListener('submit', async (e) => {
  e.preventDefault();
  const out = document.getElementById('add-wallet-result');
  const f = new FormData(e.target);
  const name = f.get('name');
  // Its wallet RPC's URL if given, else its address and view key (the explorer opens it view-only).
  const body = f.get('url')
    ? { name, url: f.get('url') }
    : { name, address: f.get('address'), viewKey: f.get('viewKey') };
  out.textContent = body.url ? '' : `opening ${name} view-only (its first scan may take a while)…`;
  try {
    const w = await post('api/wallets', 'POST', body);
    out.textContent = `added ${w.name} (${w.address})${w.viewOnly ? ', view-only' : ''}`;
    e.target.reset();
    poll();
  } catch (err) {
    out.textContent = err.message;
  }
});

document.getElementById('wallets').addEventListener('click', async (e) => {
  const name = e.target instanceof Element ? e.target.getAttribute('data-remove') : null;
  if (name === null) return;
  const out = document.getElementById('add-wallet-result');
  try {
    await post(`api/wallets/${encodeURIComponent(name)}`, 'DELETE');
    out.textContent = `removed ${name}`;
    poll();
  } catch (err) {
    out.textContent = err.message;
  }
});

window.addEventListener('hashchange', () => {
  lastText = undefined;
  window.scrollTo(0, 0);
  poll();
});

poll();
