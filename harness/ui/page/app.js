// The explorer page: asks the harness for the testnet's picture (api/state) every second and draws
// it. Plain DOM, text only (a token's name or a log line is never parsed as HTML).
'use strict';

const POLL_MS = 1000;
let decimals = 8;

/** An element with text or children; attributes as given (data-*, class). */
function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) if (v !== undefined) e.setAttribute(k, String(v));
  for (const c of children) if (c !== undefined && c !== null) e.append(c instanceof Node ? c : String(c));
  return e;
}

/** Atomic units as coins: "1234.5" (trailing zeros dropped). */
function coins(atomic) {
  const s = String(atomic).padStart(decimals + 1, '0');
  const whole = s.slice(0, s.length - decimals);
  const frac = s.slice(s.length - decimals).replace(/0+$/, '');
  return frac ? `${whole}.${frac}` : whole;
}

const short = (h) => (h && h.length > 16 ? `${h.slice(0, 8)}…${h.slice(-6)}` : h || '');

function txItem(tx) {
  const parts = [el('span', { class: `type type-${tx.type}`, 'data-type': tx.type }, tx.type)];
  parts.push(el('span', { class: 'hash', title: tx.hash }, short(tx.hash)));
  if (tx.token)
    parts.push(` ${tx.token.ticker} (supply ${tx.token.supply}${tx.token.name ? `, ${tx.token.name}` : ''})`);
  else if (tx.asset && tx.asset !== 'SAL1') parts.push(` ${tx.asset}`);
  if (tx.outputs) {
    const paid = Object.entries(tx.outputs)
      .filter(([, v]) => v > 0)
      .map(([a, v]) => `${coins(v)} ${a}`);
    if (paid.length) parts.push(` pays ${paid.join(', ')}`);
  }
  if (tx.burnt) parts.push(` burns ${coins(tx.burnt)}`);
  if (tx.fee) parts.push(el('span', { class: 'muted' }, ` fee ${coins(tx.fee)}`));
  return el('li', { 'data-tx': tx.hash, 'data-type': tx.type }, ...parts);
}

function replace(id, ...children) {
  const box = document.getElementById(id);
  box.replaceChildren(...children);
}

function drawBlocks(blocks) {
  replace(
    'blocks',
    ...blocks.map((b) =>
      el(
        'tr',
        { 'data-height': b.height },
        el('td', {}, el('strong', {}, b.height), el('div', { class: 'hash', title: b.hash }, short(b.hash))),
        el('td', {}, new Date(b.timestamp * 1000).toLocaleTimeString()),
        el('td', {}, el('ul', { class: 'txs' }, ...b.txs.map(txItem))),
      ),
    ),
  );
}

function drawPool(pool) {
  replace('pool', ...(pool.length ? pool.map(txItem) : [el('li', { class: 'empty' }, 'empty')]));
}

function drawTokens(tokens) {
  if (!tokens.length) return replace('tokens', el('tr', {}, el('td', { colspan: 6, class: 'empty' }, 'no token yet')));
  replace(
    'tokens',
    ...tokens.map((t) =>
      el(
        'tr',
        { 'data-token': t.assetType },
        el('td', {}, el('strong', {}, t.assetType)),
        el('td', {}, t.name),
        el('td', { 'data-field': 'supply' }, t.supply),
        el(
          'td',
          { 'data-field': 'creator' },
          t.creator || 'not a testnet wallet',
          t.createdAt ? ` (block ${t.createdAt})` : '',
        ),
        el('td', {}, t.url ? el('code', {}, t.url) : '', t.size ? ` ${t.size} bytes` : ''),
        el(
          'td',
          { 'data-field': 'holders' },
          ...(t.holders.length
            ? t.holders.map((h) =>
                el(
                  'div',
                  { 'data-holder': h.wallet },
                  `${h.wallet}: ${coins(h.balance)} (${coins(h.unlocked)} unlocked)`,
                ),
              )
            : ['none among the testnet wallets']),
        ),
      ),
    ),
  );
}

function drawWallet(w) {
  const balances = el(
    'table',
    {},
    el(
      'thead',
      {},
      el('tr', {}, el('th', {}, 'asset'), el('th', {}, 'balance'), el('th', {}, 'unlocked'), el('th', {}, 'locked')),
    ),
    el(
      'tbody',
      {},
      ...w.balances.map((b) =>
        el(
          'tr',
          { 'data-asset': b.asset },
          el('td', {}, b.asset),
          el('td', { 'data-field': 'balance' }, coins(b.balance)),
          el('td', { 'data-field': 'unlocked' }, coins(b.unlocked)),
          el(
            'td',
            { 'data-field': 'locked' },
            coins(BigInt(b.balance) - BigInt(b.unlocked)),
            b.blocksToUnlock ? ` (${b.blocksToUnlock} blocks)` : '',
          ),
        ),
      ),
    ),
  );
  const transfers = el(
    'ul',
    { class: 'txs' },
    ...(w.transfers.length
      ? w.transfers.map((t) =>
          el(
            'li',
            { 'data-transfer': t.txid, 'data-kind': t.type },
            el('span', { class: `type type-${t.type}` }, t.type),
            `${coins(t.amount)} ${t.asset || ''} `,
            el('span', { class: 'muted' }, t.height ? `block ${t.height}` : 'unconfirmed'),
            ' ',
            el('span', { class: 'hash', title: t.txid }, short(t.txid)),
          ),
        )
      : [el('li', { class: 'empty' }, 'no transfers')]),
  );
  return el(
    'div',
    { class: 'card', 'data-wallet': w.name },
    el('h3', {}, w.name, w.busy ? el('span', { class: 'busy' }, ' (busy: last known)') : ''),
    el('div', { class: 'address hash' }, w.address),
    balances,
    el('h4', {}, 'transfers'),
    transfers,
  );
}

function drawPrograms(programs) {
  replace(
    'programs',
    ...programs.map((p) =>
      el(
        'div',
        { class: 'card', 'data-program': p.name },
        el('h3', {}, p.name),
        el('div', {}, `pid ${p.pid}, ${p.state}, ${p.restarts} restart${p.restarts === 1 ? '' : 's'}`),
        el('div', { class: 'muted hash' }, p.log),
        el('pre', {}, p.tail.join('\n') || '(empty log)'),
      ),
    ),
  );
}

function automineText(m) {
  const parts = [];
  if (m.mineOnTx) parts.push('mine-on-tx');
  if (m.blockTime > 0) parts.push(`every ${m.blockTime} s`);
  return parts.length ? parts.join(' + ') : 'manual';
}

function draw(s) {
  decimals = s.decimals;
  document.getElementById('height').textContent = String(s.height);
  document.getElementById('backend').textContent = s.backend;
  document.getElementById('automine').textContent = automineText(s.automine);
  document.getElementById('run').textContent = s.runId;
  document.getElementById('updated').textContent = new Date(s.at).toLocaleTimeString();
  const problems = document.getElementById('problems');
  problems.hidden = s.problems.length === 0;
  problems.textContent = s.problems.join('; ');
  drawBlocks(s.blocks);
  drawPool(s.pool);
  drawTokens(s.tokens);
  replace('wallets', ...s.wallets.map(drawWallet));
  drawPrograms(s.programs);
  document.body.dataset.height = String(s.height);
}

async function poll() {
  try {
    const res = await fetch('api/state', { cache: 'no-store' });
    const body = await res.json();
    if (!res.ok) throw new Error(body.error || `HTTP ${res.status}`);
    draw(body);
  } catch (err) {
    const problems = document.getElementById('problems');
    problems.hidden = false;
    problems.textContent = `the harness did not answer: ${err.message} (is saltnet up still running?)`;
  } finally {
    setTimeout(poll, POLL_MS);
  }
}

poll();
