// What a wallet keeps beside its transfers, drawn with text at the edges: subaddresses and accounts with labels,
// integrated addresses, the address book, tx notes, attributes.
import { addressOf, on, text, wallets, type Draw } from './forms.js';
import { newName } from './model.js';

/** A subaddress with an edge label (sometimes several at once), saved to be paid later. */
export const subaddress: Draw = ({ rng, world }) => {
  const w = rng.pick(wallets(world));
  const name = newName(world, 'sub');
  w.subaddresses.push(name);
  return [
    on(w.name, {
      call: { method: 'create_address', params: { label: text(rng) } },
      save: { [name]: 'result.address' },
    }),
  ];
};

export const relabel: Draw = ({ rng, world }) => {
  const w = rng.pick(wallets(world));
  const minor = rng.int(0, w.subaddresses.length + 1);
  const step = on(w.name, {
    call: { method: 'label_address', params: { index: { major: 0, minor }, label: text(rng) } },
  });
  return [minor > w.subaddresses.length ? { ...step, expect_error: {} } : step];
};

export const account: Draw = ({ rng, world }) => {
  const w = rng.pick(wallets(world));
  w.accounts++;
  return [on(w.name, { call: { method: 'create_account', params: { label: text(rng) } } })];
};

export const addresses: Draw = ({ rng, world }) => {
  const w = rng.pick(wallets(world));
  return [on(w.name, { call: { method: rng.pick(['get_address', 'get_accounts']) } })];
};

export const integrated: Draw = ({ rng, world }) => {
  const w = rng.pick(wallets(world));
  const name = newName(world, 'int');
  const id = rng.pick(['0123456789abcdef', 'FFFFFFFFFFFFFFFF', '0000000000000001']);
  w.integrated.push(name);
  return [
    on(w.name, {
      call: { method: 'make_integrated_address', params: { payment_id: id } },
      save: { [name]: 'result.integrated_address' },
    }),
  ];
};

/** The address book: add an entry (an address of the program, edge description), read and delete one, or miss. */
export const book: Draw = ({ rng, world }) => {
  const w = rng.pick(wallets(world));
  const to = rng.pick(wallets(world));
  const kind = rng.weighted([
    ['add', 4],
    ['get', 2],
    ['delete', 1],
    ['miss', 1],
  ] as const);
  if (kind === 'add' || w.book === 0) {
    w.book++;
    return [
      on(w.name, {
        call: { method: 'add_address_book', params: { address: addressOf(rng, to), description: text(rng) } },
      }),
    ];
  }
  if (kind === 'get')
    return [on(w.name, { call: { method: 'get_address_book', params: { entries: [rng.int(0, w.book - 1)] } } })];
  if (kind === 'delete') {
    const index = rng.int(0, w.book - 1);
    w.book--;
    return [on(w.name, { call: { method: 'delete_address_book', params: { index } } })];
  }
  return [
    on(w.name, {
      call: { method: 'get_address_book', params: { entries: [w.book + rng.int(0, 3)] } },
      expect_error: {},
    }),
  ];
};

/** A note on a transaction of the program (or on an id nobody sent), then the notes read back. */
export const notes: Draw = ({ rng, world }) => {
  const w = rng.pick(wallets(world));
  const txs = world.txs.filter((t) => t.relayed || t.from === w.name);
  const id = txs.length && rng.chance(0.8) ? `\${${rng.pick(txs).name}}` : '1'.repeat(64);
  return [
    on(w.name, { call: { method: 'set_tx_notes', params: { txids: [id], notes: [text(rng)] } } }),
    on(w.name, { call: { method: 'get_tx_notes', params: { txids: [id, '2'.repeat(64)] } } }),
  ];
};

export const attribute: Draw = ({ rng, world }) => {
  const w = rng.pick(wallets(world));
  const key = rng.pick(['order', 'ключ', 'k<>', '']);
  if (rng.chance(0.6)) {
    w.attributes.add(key);
    return [on(w.name, { call: { method: 'set_attribute', params: { key, value: text(rng) } } })];
  }
  const step = on(w.name, { call: { method: 'get_attribute', params: { key } } });
  return [w.attributes.has(key) ? step : { ...step, expect_error: {} }];
};
