// The explorer's main page: the testnet's picture (api/state) as the chain's last blocks, the pool,
// the tokens, the wallets and the programs, each with links to its own page.
import {
  amount,
  blockLink,
  coins,
  el,
  isToken,
  link,
  route,
  short,
  tokenLink,
  transferItem,
  txItem,
  ui,
  unit,
  walletLink,
} from './dom.js';

function replace(id, ...children) {
  document.getElementById(id).replaceChildren(...children);
}

function drawBlocks(blocks) {
  replace(
    'blocks',
    ...blocks.map((b) =>
      el(
        'tr',
        { 'data-height': b.height },
        el('td', {}, el('strong', {}, blockLink(b.height)), el('div', { class: 'hash', title: b.hash }, short(b.hash))),
        el('td', {}, new Date(b.timestamp * 1000).toLocaleTimeString()),
        el('td', {}, el('ul', { class: 'txs' }, ...b.txs.map((t) => txItem(t)))),
      ),
    ),
  );
}

function drawPool(pool) {
  replace('pool', ...(pool.length ? pool.map((t) => txItem(t)) : [el('li', { class: 'empty' }, 'empty')]));
}

/** "held 1000 of 1000": what the wallets shown hold of the supply. */
export function heldText(t) {
  const supply = BigInt(t.supply) * 10n ** BigInt(ui.decimals);
  return `${coins(t.held)} of ${t.supply} ${t.ticker}${BigInt(t.held) < supply ? ' (the rest: in wallets the explorer does not know)' : ''}`;
}

export function holderLine(h, t) {
  return el(
    'div',
    { 'data-holder': h.wallet },
    walletLink(h.wallet),
    h.app ? el('span', { class: 'muted' }, ' (app)') : '',
    `: ${amount(h.balance, t.assetType)} (${coins(h.unlocked)} unlocked)`,
  );
}

function drawTokens(tokens) {
  if (!tokens.length) return replace('tokens', el('tr', {}, el('td', { colspan: 6, class: 'empty' }, 'no token yet')));
  replace(
    'tokens',
    ...tokens.map((t) =>
      el(
        'tr',
        { 'data-token': t.assetType },
        el('td', { 'data-field': 'ticker' }, el('strong', {}, tokenLink(t.assetType))),
        el('td', {}, t.name),
        el('td', { 'data-field': 'supply' }, t.supply),
        el(
          'td',
          { 'data-field': 'creator' },
          t.creator ? walletLink(t.creator) : 'not a wallet shown here',
          t.createdAt ? el('span', {}, ' (block ', blockLink(t.createdAt), ')') : '',
        ),
        el('td', {}, t.url ? el('code', {}, t.url) : '', t.size ? ` ${t.size} bytes` : ''),
        el(
          'td',
          { 'data-field': 'holders' },
          ...(t.holders.length ? t.holders.map((h) => holderLine(h, t)) : ['none among the wallets shown']),
          el('div', { class: 'muted', 'data-field': 'held' }, `held ${heldText(t)}`),
        ),
      ),
    ),
  );
}

/** A wallet's balances per asset: balance, unlocked, locked (with the blocks until it unlocks). */
export function balancesTable(w) {
  return el(
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
          el('td', {}, isToken(b.asset) ? tokenLink(b.asset) : unit(b.asset)),
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
}

export function transfersList(w) {
  return el(
    'ul',
    { class: 'txs' },
    ...(w.transfers.length ? w.transfers.map(transferItem) : [el('li', { class: 'empty' }, 'no transfers')]),
  );
}

function drawWallet(w) {
  return el(
    'div',
    { class: 'card', 'data-wallet': w.name },
    el(
      'h3',
      {},
      walletLink(w.name),
      w.app ? el('span', { class: 'muted' }, w.viewOnly ? ` (app, view-only: ${w.url})` : ` (app: ${w.url})`) : '',
      w.busy ? el('span', { class: 'busy' }, ' (busy: last known)') : '',
      w.app ? el('button', { type: 'button', class: 'remove', 'data-remove': w.name }, 'remove') : '',
    ),
    el('div', { class: 'address hash' }, w.address),
    balancesTable(w),
    el('h4', {}, 'last transfers ', link(route.wallet(w.name), 'all →')),
    transfersList(w),
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

export function drawHome(s) {
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
