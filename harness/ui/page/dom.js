// What every view of the explorer draws with: elements made of text (a token's name, a log line or an
// address is never parsed as HTML), amounts in their unit, links between the pages (client-side
// routes: #/block/<height|hash>, #/tx/<hash>, #/token/<ticker>, #/wallet/<name>, #/blocks/<top>),
// and one transaction or wallet transfer as a line.

export const ui = { decimals: 8 };

/** An element with text or children; attributes as given (data-*, class, href). */
export function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) if (v !== undefined) e.setAttribute(k, String(v));
  for (const c of children) if (c !== undefined && c !== null) e.append(c instanceof Node ? c : String(c));
  return e;
}

/** Atomic units as coins: "1234.5" (trailing zeros dropped). */
export function coins(atomic) {
  const d = ui.decimals;
  const s = String(atomic).padStart(d + 1, '0');
  const whole = s.slice(0, s.length - d);
  const frac = s.slice(s.length - d).replace(/0+$/, '');
  return frac ? `${whole}.${frac}` : whole;
}

export const short = (h) => (h && h.length > 16 ? `${h.slice(0, 8)}…${h.slice(-6)}` : h || '');

/** An asset's unit: a token's ticker (salLIFE → LIFE), SAL1 as it is. */
export const unit = (asset) => (asset && asset.startsWith('sal') ? asset.slice(3) : asset || '');
export const isToken = (asset) => Boolean(asset) && asset.startsWith('sal');

/** "5 LIFE", "1000 SAL1". */
export const amount = (atomic, asset) => `${coins(atomic)} ${unit(asset)}`.trim();

export const route = {
  blocks: (top) => (top === undefined ? '#/blocks' : `#/blocks/${top}`),
  block: (id) => `#/block/${encodeURIComponent(id)}`,
  tx: (hash) => `#/tx/${encodeURIComponent(hash)}`,
  token: (ticker) => `#/token/${encodeURIComponent(ticker)}`,
  wallet: (name) => `#/wallet/${encodeURIComponent(name)}`,
};

/** A link to another page of the explorer (its route is always a #/… path made here). */
export const link = (href, text, attrs = {}) => el('a', { href, ...attrs }, text);

export const txLink = (hash) => link(route.tx(hash), short(hash), { class: 'hash', title: hash, 'data-tx-link': hash });
export const blockLink = (height) => link(route.block(height), String(height), { 'data-block-link': height });
export const tokenLink = (asset) => link(route.token(unit(asset)), unit(asset), { 'data-token-link': unit(asset) });
export const walletLink = (name) => link(route.wallet(name), name, { 'data-wallet-link': name });

const PAID_TO = {
  miner: 'to the miner',
  treasury: 'to the treasury',
  'treasury mint': 'treasury mint',
  'minted supply': 'minted supply',
  protocol: 'protocol payout',
};

/** What a coinbase pays, each output labelled: the miner's reward, the treasury's share and mint, a token's supply. */
function payments(pays) {
  return pays
    .filter((p) => p.amount !== '0')
    .map((p) =>
      el(
        'span',
        { class: 'pay', 'data-pay': p.to },
        ` ${PAID_TO[p.to] || p.to} `,
        isToken(p.asset) ? el('span', {}, `${coins(p.amount)} `, tokenLink(p.asset)) : amount(p.amount, p.asset),
      ),
    );
}

/** A transaction as a line: its type, hash (a link to it), the token it creates or moves, what it pays or moves. */
export function txItem(tx, extra) {
  const parts = [el('span', { class: `type type-${tx.type}`, 'data-type': tx.type }, tx.type), txLink(tx.hash)];
  if (tx.token)
    parts.push(
      ' creates ',
      tokenLink(`sal${tx.token.ticker}`),
      ` (supply ${tx.token.supply}${tx.token.name ? `, ${tx.token.name}` : ''})`,
    );
  else if (isToken(tx.asset) && !tx.moved) parts.push(' ', tokenLink(tx.asset));
  if (tx.moved)
    parts.push(
      el(
        'span',
        { 'data-field': 'moved' },
        ' moves ',
        isToken(tx.moved.asset)
          ? el('span', {}, `${coins(tx.moved.amount)} `, tokenLink(tx.moved.asset))
          : amount(tx.moved.amount, tx.moved.asset),
      ),
    );
  if (tx.pays) parts.push(...payments(tx.pays));
  if (tx.burnt)
    parts.push(
      el(
        'span',
        { 'data-field': 'burnt' },
        tx.type === 'miner' ? ` stakers' share ${coins(tx.burnt)} SAL1` : ` burns ${coins(tx.burnt)} SAL1`,
      ),
    );
  if (tx.fee) parts.push(el('span', { class: 'muted' }, ` fee ${coins(tx.fee)}`));
  return el('li', { 'data-tx': tx.hash, 'data-type': tx.type }, ...(extra ? [extra, ' '] : []), ...parts);
}

/** A wallet transfer's label: what it is, from the wallet's kind and the transaction's type on the chain. */
export function transferLabel(t) {
  if (t.type === 'block') {
    if (t.txType === 'protocol') return isToken(t.asset) ? 'minted supply' : 'protocol payout';
    return 'mined';
  }
  if (t.type === 'out')
    return { 'create-token': 'create-token', transfer: 'sent', rollup: 'rollup' }[t.txType] || t.txType || 'out';
  if (t.type === 'in') return t.txType && t.txType !== 'transfer' ? `received (${t.txType})` : 'received';
  return t.txType ? `${t.type} ${t.txType}` : t.type;
}

/** A wallet transfer as a line: label, amount (or the burn of a token's creation), block, hash, fee. */
export function transferItem(t) {
  const label = transferLabel(t);
  const parts = [el('span', { class: `type type-${t.txType || t.type}` }, label)];
  if (t.token) parts.push('creates ', tokenLink(t.token), ' ');
  if (t.amount !== '0' || !t.burnt)
    parts.push(
      el(
        'span',
        { 'data-field': 'amount' },
        isToken(t.asset) ? el('span', {}, `${coins(t.amount)} `, tokenLink(t.asset)) : amount(t.amount, t.asset),
      ),
      ' ',
    );
  if (t.burnt) parts.push(el('span', { 'data-field': 'burnt' }, `burns ${coins(t.burnt)} SAL1`), ' ');
  parts.push(
    el('span', { class: 'muted' }, t.height ? 'block ' : 'unconfirmed'),
    t.height ? blockLink(t.height) : '',
    ' ',
    txLink(t.txid),
  );
  if (t.fee) parts.push(el('span', { class: 'muted' }, ` fee ${coins(t.fee)}`));
  return el('li', { 'data-transfer': t.txid, 'data-kind': t.type, 'data-label': label }, ...parts);
}

/** A table with a header row and body rows. */
export function table(heads, rows, attrs = {}) {
  return el(
    'table',
    attrs,
    el('thead', {}, el('tr', {}, ...heads.map((h) => el('th', {}, h)))),
    el('tbody', {}, ...rows),
  );
}

/** Facts as a definition list: [label, value, testid?]. */
export function facts(list) {
  return el(
    'dl',
    { class: 'facts' },
    ...list.map(([k, v, id]) => el('div', {}, el('dt', {}, k), el('dd', id ? { 'data-fact': id } : {}, v))),
  );
}
