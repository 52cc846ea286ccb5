// The pages one drills into: the chain a page of blocks at a time back to genesis, a block, a
// transaction, a token with its whole history and holders, a wallet with all its transfers. Each
// draws the JSON its api/ request answers (harness/ui/pages.ts) and links to the others.
import {
  amount,
  blockLink,
  el,
  facts,
  isToken,
  link,
  route,
  table,
  tokenLink,
  txItem,
  txLink,
  walletLink,
} from './dom.js';
import { balancesTable, heldText, holderLine, transfersList } from './home.js';

const PER_PAGE = 20;
const time = (t) => (t ? new Date(t * 1000).toLocaleString() : '');

function blockRow(b) {
  return el(
    'tr',
    { 'data-height': b.height },
    el('td', {}, el('strong', {}, blockLink(b.height))),
    el('td', {}, link(route.block(b.hash), b.hash, { class: 'hash' })),
    el('td', {}, time(b.timestamp)),
    el('td', {}, el('ul', { class: 'txs' }, ...b.txs.map((t) => txItem(t)))),
  );
}

/** The chain from `top` down, PER_PAGE blocks a page, with links to newer and older pages. */
export function blocksView(d) {
  const top = d.blocks.length ? d.blocks[0].height : 0;
  const bottom = d.blocks.length ? d.blocks[d.blocks.length - 1].height : 0;
  const nav = el(
    'nav',
    { class: 'pager' },
    top < d.height - 1 ? link(route.blocks(), '« newest') : '',
    top < d.height - 1 ? link(route.blocks(Math.min(top + PER_PAGE, d.height - 1)), '‹ newer', { rel: 'prev' }) : '',
    bottom > 0 ? link(route.blocks(bottom - 1), 'older ›', { rel: 'next', 'data-older': bottom - 1 }) : '',
    bottom > 0 ? link(route.blocks(Math.min(PER_PAGE - 1, d.height - 1)), 'genesis »') : '',
  );
  return [
    el('h2', {}, `Blocks ${bottom} to ${top}`, el('span', { class: 'muted' }, ` of ${d.height}`)),
    nav,
    table(['height', 'hash', 'time', 'transactions'], d.blocks.map(blockRow), { 'data-testid': 'all-blocks' }),
    nav.cloneNode(true),
  ];
}

export function blockView(d) {
  const b = d.block;
  return [
    el('h2', {}, 'Block ', el('span', { 'data-fact': 'height' }, b.height)),
    facts([
      ['hash', el('span', { class: 'hash' }, b.hash), 'hash'],
      ['time', time(b.timestamp)],
      ['confirmations', d.height - b.height, 'confirmations'],
      ['previous', b.height > 0 ? blockLink(b.height - 1) : 'none (genesis)'],
      ['next', b.height + 1 < d.height ? blockLink(b.height + 1) : 'none yet'],
      ['chain', link(route.blocks(b.height), 'in the list of blocks')],
    ]),
    el('h3', {}, `${b.txs.length} transaction${b.txs.length === 1 ? '' : 's'}`),
    el('ul', { class: 'txs', 'data-testid': 'block-txs' }, ...b.txs.map((t) => txItem(t))),
  ];
}

export function txView(d) {
  const t = d.tx;
  const list = [
    ['type', el('span', { class: `type type-${t.type}` }, t.type), 'type'],
    ['hash', el('span', { class: 'hash' }, t.hash)],
    ['block', d.inPool ? 'in the pool (unconfirmed)' : blockLink(d.height), 'block'],
  ];
  if (!d.inPool) list.push(['confirmations', d.confirmations], ['time', time(d.timestamp)]);
  if (t.asset) list.push(['asset', isToken(t.asset) ? tokenLink(t.asset) : t.asset, 'asset']);
  if (t.token) list.push(['creates', tokenLink(`sal${t.token.ticker}`), 'creates']);
  if (t.moved) list.push(['moves', amount(t.moved.amount, t.moved.asset), 'moved']);
  if (t.burnt) list.push([t.type === 'miner' ? "stakers' share" : 'burns', amount(t.burnt, 'SAL1'), 'burnt']);
  if (t.fee) list.push(['fee', amount(t.fee, 'SAL1'), 'fee']);
  return [
    el('h2', {}, 'Transaction'),
    facts(list),
    el('ul', { class: 'txs' }, txItem(t)),
    el('h3', {}, "The wallets' view"),
    d.wallets.length
      ? table(
          ['wallet', 'entry', 'amount'],
          d.wallets.map((w) =>
            el(
              'tr',
              { 'data-entry': w.wallet },
              el('td', {}, walletLink(w.wallet)),
              el('td', {}, w.type),
              el('td', {}, amount(w.amount, w.asset)),
            ),
          ),
        )
      : el('p', { class: 'empty' }, 'none of the wallets shown has it'),
  ];
}

export function tokenView(d) {
  const list = [
    ['ticker', d.ticker, 'ticker'],
    ['asset type', d.assetType],
    ['name', d.name, 'name'],
    ['supply', `${d.supply} ${d.ticker}`, 'supply'],
    ['creator', d.creator ? walletLink(d.creator) : 'not a wallet shown here', 'creator'],
    ['created in', d.createdAt ? el('span', {}, 'block ', blockLink(d.createdAt)) : 'not found', 'created'],
    ['creation', d.creationTx ? txLink(d.creationTx) : 'not found', 'creation'],
  ];
  if (d.url) list.push(['url', el('code', {}, d.url)]);
  if (d.size) list.push(['metadata size', `${d.size} bytes`]);
  return [
    el('h2', {}, 'Token ', el('span', {}, d.ticker), d.name ? el('span', { class: 'muted' }, ` ${d.name}`) : ''),
    facts(list),
    el('h3', {}, 'Holders'),
    el(
      'div',
      { 'data-testid': 'holders' },
      ...(d.holders.length ? d.holders.map((h) => holderLine(h, d)) : [el('p', { class: 'empty' }, 'none shown')]),
    ),
    el('p', { 'data-field': 'held' }, `held by the wallets shown: ${heldText(d)}`),
    el('h3', {}, 'History ', el('span', { class: 'muted' }, '(oldest first)')),
    el(
      'ul',
      { class: 'txs', 'data-testid': 'history' },
      ...d.history.map((t) =>
        txItem(t, t.height ? el('span', { class: 'muted' }, 'block ', blockLink(t.height)) : 'pool'),
      ),
    ),
  ];
}

export function walletView(w) {
  return [
    el(
      'h2',
      {},
      'Wallet ',
      el('span', {}, w.name),
      w.app ? el('span', { class: 'muted' }, w.viewOnly ? ` (app, view-only: ${w.url})` : ` (app: ${w.url})`) : '',
    ),
    w.viewOnly
      ? el(
          'p',
          { class: 'muted', 'data-field': 'view-only' },
          'View-only: a Carrot address with its view-balance secret shows what the wallet receives and spends; a CN ' +
            'address shows what it received before Carrot and no spends (its balance is all it received).',
        )
      : '',
    el('div', { class: 'address hash', 'data-fact': 'address' }, w.address),
    w.busy ? el('p', { class: 'busy' }, 'busy: what it answered last') : '',
    balancesTable(w),
    el(
      'h3',
      {},
      `${w.transfers.length} transfer${w.transfers.length === 1 ? '' : 's'} `,
      el('span', { class: 'muted' }, '(newest first)'),
    ),
    transfersList(w),
  ];
}

/** A page's answer that found nothing: what the server said. */
export function problemView(message) {
  return [el('p', { class: 'problems', 'data-testid': 'not-found' }, message)];
}
