import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadScenario, loadScenarioSync, parseScenario } from '../../harness/scenario/parse.js';
import { ScenarioError, type ScenarioProblem } from '../../harness/scenario/types.js';

const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));

function problemsOf(text: string, file = 'bad.yaml'): ScenarioProblem[] {
  try {
    parseScenario(text, file);
  } catch (e) {
    if (e instanceof ScenarioError) return e.problems;
    throw e;
  }
  throw new Error('expected the scenario to be rejected');
}

/** Problems as `line:col path: message` for compact assertions. */
const brief = (ps: ScenarioProblem[]) => ps.map((p) => `${p.pos.line}:${p.pos.col} ${p.path}: ${p.message}`);

describe('a rich scenario using every construct', () => {
  it('parses into the model with positions, bigint amounts and templates kept', async () => {
    const s = await loadScenario(fixture('rich.yaml'));
    expect(s.file).toBe(fixture('rich.yaml'));
    expect(s.name).toBe('rich scenario');
    expect(s.description).toBe('every construct of the scenario language');
    expect(s.tags).toEqual(['tokens', 'transfers']);
    expect(s.backends).toEqual(['sim', 'salvium']);
    expect(s.requires).toEqual({ height: 1201, unlocked: { SAL1: 110000000000n } });
    expect(s.wallets).toEqual([{ name: 'bob' }, { name: 'carol', unlocked: { SAL1: 1000000000n } }, { name: 'dave' }]);
    expect(s.steps).toHaveLength(28);
    s.steps.forEach((st, i) => {
      expect(st.index).toBe(i);
      expect(st.pos.file).toBe(fixture('rich.yaml'));
    });
    const [create, , mine1, , transfer, split, transferTpl, sweepAll, sweepSingle, balance, getbalance] = s.steps;
    expect(create).toEqual({
      index: 0,
      name: 'token not listed yet',
      action: { kind: 'wallet', method: 'create_token', params: { ticker: 'abcd', supply: 1000, name: 'Demo' } },
      wallet: 'main',
      save: { create_tx: 'result.tx_hash_list[0]' },
      expect: { 'result.tx_hash_list': { length: 1 }, 'result.fee_list[0]': { gt: 0 } },
      pos: { file: fixture('rich.yaml'), line: 14, col: 5 },
    });
    expect(mine1).toMatchObject({ name: 'mine 1', action: { kind: 'mine', blocks: 1 }, pos: { line: 22, col: 5 } });
    expect(transfer).toMatchObject({
      action: { kind: 'wallet', method: 'transfer', params: { to: '${bob.address}', amount: 150000000n, priority: 1 } },
      wallet: 'main',
      save: { tx: 'result.tx_hash', fee: 'result.fee' },
      expect: {
        'result.tx_hash': { matches: '^[0-9a-f]{64}$' },
        'result.amount': '1.5 SAL1',
        'result.fee': { lt: '1 SAL1' },
      },
    });
    expect(split!.action).toEqual({
      kind: 'wallet',
      method: 'transfer_split',
      params: {
        destinations: [
          { to: '${wallets.carol.address}', amount: 150000000n },
          { address: '${dave.carrot}', amount: 1n, asset: 'SAL1' },
        ],
        get_tx_keys: true,
      },
    });
    expect(transferTpl).toMatchObject({
      action: { params: { to: '${bob.cn}', amount: '${fee}' } },
      expect_error: { code: -4, message: { contains: 'CryptoNote address' } },
    });
    expect(sweepAll).toMatchObject({
      wallet: 'carol',
      action: { method: 'sweep_all', params: { to: '${bob.address}', below_amount: 200000000n } },
    });
    expect(sweepSingle).toMatchObject({
      wallet: 'bob',
      expect_error: {},
      action: { params: { key_image: '${env.KEY_IMAGE}' } },
    });
    expect(balance!.expect!['result.balances[0].unlocked_balance']).toEqual({
      all: [{ gte: '1 SAL1' }, { lte: 18440000000000000000n }],
    });
    expect(getbalance!.action).toEqual({ kind: 'wallet', method: 'getbalance', params: {} });

    const byName = (n: string) => s.steps.find((x) => x.name === n)!;
    expect(byName('call get_info (daemon)').action).toEqual({
      kind: 'call',
      on: 'daemon',
      method: 'get_info',
      params: {},
    });
    expect(byName('call /get_height').action).toEqual({ kind: 'call', on: 'daemon', path: '/get_height', params: {} });
    expect(byName('call get_address').action).toEqual({
      kind: 'call',
      on: 'wallet',
      method: 'get_address',
      params: { account_index: 0 },
    });
    expect(byName('wait get_balance')).toMatchObject({
      wallet: 'bob',
      action: {
        kind: 'wait',
        call: { kind: 'call', on: 'wallet', method: 'get_balance', params: { asset_type: 'SAL1' } },
        until: { 'result.balances[0].unlocked_balance': { gte: '1.5 SAL1' } },
        blocks: 12,
        mine: true,
      },
    });
    expect(byName('wait get_tokens').action).toEqual({
      kind: 'wait',
      call: { kind: 'wallet', method: 'get_tokens', params: { regex: 'ABCD' } },
      until: { 'result.tokens': { contains: 'salABCD' } },
      seconds: 30,
      mine: false,
    });
    expect(byName('metadata rich').action).toEqual({
      kind: 'metadata',
      name: 'rich',
      fields: { name: 'Rich', description: '...' },
    });
    expect(byName('metadata from_file').action).toEqual({
      kind: 'metadata',
      name: 'from_file',
      file: 'fixtures/metadata/rich.json',
      filePos: { file: fixture('rich.yaml'), line: 80, col: 40 },
    });
    expect(s.steps[19]!.action).toEqual({
      kind: 'wallet',
      method: 'create_token',
      params: { ticker: 'RICH', supply: '18440000000000000', metadata: 'rich', get_tx_keys: true },
    });
    expect(s.steps[20]).toMatchObject({ expect_error: { code: -7, message: 'Token already exists.' } });
    expect(byName('mine 2').action).toEqual({ kind: 'mine', blocks: 2, sync: true });
    expect(byName('mine to 1300').action).toEqual({ kind: 'mine', to: 1300, sync: true });
    expect(byName('snapshot before_restart').action).toEqual({ kind: 'snapshot', name: 'before_restart' });
    expect(byName('restart wallet')).toMatchObject({ wallet: 'bob', action: { kind: 'restart', target: 'wallet' } });
    expect(byName('restart daemon').action).toEqual({ kind: 'restart', target: 'daemon' });
    expect(byName('revert before_restart').action).toEqual({ kind: 'revert', name: 'before_restart' });
    expect(byName('call get_token_info (daemon)').expect).toEqual({
      'result["token.asset_type"]': 'RICH',
      'result.sal_token.url': '${metadata.rich.url}',
      'result.sal_token.size': '${metadata.rich.size}',
      'result.sal_token.name': 'prefix $${literal} ${height}',
    });
    expect(loadScenarioSync(fixture('rich.yaml'))).toEqual(s);
  });

  it('keeps huge atomic amounts exact and accepts aliases and merge keys', () => {
    const s = parseScenario(
      [
        'name: big',
        'requires: { unlocked: { salABCD: 18440000000000000, SAL1: "0.00000001 SAL1" }, tokens: { ABCD: { supply: 184400000 } } }',
        'steps:',
        '  - &t { transfer: { to: "${main.address}", amount: 18440000000000000000 } }',
        '  - *t',
        '  - { <<: *t, name: again }',
      ].join('\n'),
      'big.yaml',
    );
    expect(s.requires.unlocked).toEqual({ salABCD: 18440000000000000n, SAL1: 1n });
    expect(s.steps.map((x) => x.action)).toEqual(
      Array(3).fill({
        kind: 'wallet',
        method: 'transfer',
        params: { to: '${main.address}', amount: 18440000000000000000n },
      }),
    );
    expect(s.steps[2]!.name).toBe('again');
  });

  it('accepts the minimal forms', () => {
    const s = parseScenario(
      'name: min\nsteps:\n  - get_tokens:\n  - restart: daemon\n  - expect_error:\n    get_balance: {}\n',
      'min.yaml',
    );
    expect(s).toEqual({
      file: 'min.yaml',
      name: 'min',
      nodes: 1,
      tags: [],
      requires: {},
      wallets: [],
      steps: [
        {
          index: 0,
          name: 'get_tokens',
          action: { kind: 'wallet', method: 'get_tokens', params: {} },
          wallet: 'main',
          pos: { file: 'min.yaml', line: 3, col: 5 },
        },
        {
          index: 1,
          name: 'restart daemon',
          action: { kind: 'restart', target: 'daemon' },
          wallet: 'main',
          pos: { file: 'min.yaml', line: 4, col: 5 },
        },
        {
          index: 2,
          name: 'get_balance',
          action: { kind: 'wallet', method: 'get_balance', params: {} },
          wallet: 'main',
          expect_error: {},
          pos: { file: 'min.yaml', line: 5, col: 5 },
        },
      ],
    });
  });
});

describe('bad files: each problem with line, column, path and message', () => {
  // [title, file text, the line and the text the problem must point at, "path: message" (or a RegExp on it)]
  const cases: [string, string, number, string, RegExp | string][] = [
    ['missing name (points at the mapping that lacks it)', 'steps:\n  - mine: 1\n', 1, 'steps', 'name: missing "name"'],
    ['empty steps', 'name: x\nsteps: []\n', 2, '[]', 'steps: the list is empty (at least one item is needed)'],
    ['missing steps', 'name: x\n', 1, 'name', 'steps: missing "steps"'],
    [
      'top-level typo',
      'name: x\ndescripton: y\nsteps: [{ mine: 1 }]\n',
      2,
      'descripton',
      'descripton: unknown key "descripton" (did you mean "description"?)',
    ],
    [
      'step key typo',
      'name: x\nsteps:\n  - mine: 1\n    expcet: {}\n',
      4,
      'expcet',
      /^steps\[0\]\.expcet: unknown key "expcet" \(did you mean "expect"\?\)$/,
    ],
    [
      'action typo',
      'name: x\nsteps:\n  - get_balence: {}\n',
      3,
      'get_balence',
      'steps[0].get_balence: unknown key "get_balence" (did you mean "get_balance"?)',
    ],
    [
      'two actions',
      'name: x\nsteps:\n  - mine: 1\n    restart: wallet\n',
      4,
      'restart',
      'steps[0].restart: a step has exactly one action; this one already has mine (split it into two steps)',
    ],
    ['no action', 'name: x\nsteps:\n  - name: lonely\n', 3, 'name', 'steps[0]: the step has no action'],
    [
      'unknown key, no action',
      'name: x\nsteps:\n  - foo: 1\n',
      3,
      'foo',
      'steps[0].foo: unknown key "foo"; to call another RPC method write call: {method: foo}',
    ],
    [
      'bad amount',
      'name: x\nsteps:\n  - transfer: { to: "${main.address}", amount: 1.123456789 SAL1 }\n',
      3,
      '1.123',
      'steps[0].transfer.amount: "1.123456789 SAL1" is not an amount: SAL1 has 8 decimals, this has 9',
    ],
    [
      'float amount',
      'name: x\nsteps:\n  - transfer: { to: "${main.address}", amount: 1.5 }\n',
      3,
      '1.5',
      /^steps\[0\]\.transfer\.amount: 1\.5 is not an amount: a bare number with a fraction is ambiguous/,
    ],
    [
      'amount in a destination',
      'name: x\nsteps:\n  - transfer_split: { destinations: [{ to: "${main.address}", amount: 1 BTC }] }\n',
      3,
      '1 BTC',
      'steps[0].transfer_split.destinations[0].amount: "1 BTC" is not an amount: unknown unit BTC (units: SAL1, SAL, XMR)',
    ],
    [
      'bad matcher name',
      'name: x\nsteps:\n  - get_tokens: {}\n    expect:\n      result.tokens: { contain: salABCD }\n',
      5,
      'contain',
      /^steps\[0\]\.expect\["result\.tokens"\]\.contain: unknown matcher "contain" \(did you mean "contains"\?\)/,
    ],
    [
      'bad matcher operand',
      'name: x\nsteps:\n  - get_tokens: {}\n    expect: { result.tokens: { length: many } }\n',
      4,
      'many',
      'steps[0].expect["result.tokens"].length: length takes a number or one comparison, got the string "many"',
    ],
    [
      'two matcher keys',
      'name: x\nsteps:\n  - get_tokens: {}\n    expect: { result.n: { gte: 1, lte: 2 } }\n',
      4,
      '{ gte',
      /^steps\[0\]\.expect\["result\.n"\]: a matcher has exactly one key, this one has gte, lte/,
    ],
    [
      'absent false',
      'name: x\nsteps:\n  - get_tokens: {}\n    expect: { result.n: { absent: false } }\n',
      4,
      'false',
      'steps[0].expect["result.n"].absent: absent: false is not supported; write present: true',
    ],
    [
      'bad type matcher',
      'name: x\nsteps:\n  - get_tokens: {}\n    expect: { result.n: { type: int } }\n',
      4,
      'int',
      'steps[0].expect["result.n"].type: "int" is not a type',
    ],
    [
      'bad regex',
      'name: x\nsteps:\n  - get_tokens: {}\n    expect: { result.n: { matches: "(" } }\n',
      4,
      '"("',
      /^steps\[0\]\.expect\["result\.n"\]\.matches: bad regular expression/,
    ],
    [
      'matcher in all',
      'name: x\nsteps:\n  - get_tokens: {}\n    expect: { result.n: { all: [{ gte: 1 }, 5] } }\n',
      4,
      '5]',
      'steps[0].expect["result.n"].all[1]: expected a matcher, got the number 5',
    ],
    [
      'a bad matcher inside a contains operand',
      'name: x\nsteps:\n  - get_balance: {}\n    expect: { result.balances: { not_contains: { balance: { gt: lots } } } }\n',
      4,
      'lots',
      'steps[0].expect["result.balances"].not_contains.balance.gt: gt compares numbers: "lots" is not a number or an amount',
    ],
    [
      'a misspelt matcher deep in a contains operand',
      'name: x\nsteps:\n  - get_transfers: { in: true }\n    expect: { result.in: { contains: { amounts: [{ greater_than: 0 }] } } }\n',
      4,
      'greater_than',
      /^steps\[0\]\.expect\["result\.in"\]\.contains\.amounts\[0\]\.greater_than: unknown matcher "greater_than" \(did you mean "gt"\?\)/,
    ],
    [
      'not: where ne is meant',
      'name: x\nsteps:\n  - get_tokens: {}\n    expect: { result.address: { not: abc } }\n',
      4,
      'not',
      /^steps\[0\]\.expect\["result\.address"\]\.not: unknown matcher "not" \(did you mean "ne"\?\)/,
    ],
    [
      'bad response path',
      'name: x\nsteps:\n  - get_tokens: {}\n    expect: { results.tokens: [] }\n',
      4,
      'results',
      /^steps\[0\]\.expect\["results\.tokens"\]: "results\.tokens" must start at result or error .*did you mean "result"/,
    ],
    [
      'bad restart target',
      'name: x\nsteps:\n  - restart: node\n',
      3,
      'node',
      'steps[0].restart: "node" is not one of: daemon, wallet',
    ],
    [
      'restart typo',
      'name: x\nsteps:\n  - restart: walet\n',
      3,
      'walet',
      'steps[0].restart: "walet" is not one of: daemon, wallet (did you mean "wallet"?)',
    ],
    [
      'wrong type: string for number',
      'name: x\nsteps:\n  - mine: { blocks: two }\n',
      3,
      'two',
      'steps[0].mine.blocks: expected a number, got the string "two"',
    ],
    [
      'wrong type: number for string',
      'name: 5\nsteps: [{ mine: 1 }]\n',
      1,
      '5',
      'name: expected a string, got the number 5 (quote it: "5")',
    ],
    [
      'wrong type: mapping for list',
      'name: x\ntags: { a: 1 }\nsteps: [{ mine: 1 }]\n',
      2,
      '{',
      'tags: expected a list, got a mapping',
    ],
    [
      'wrong type: step not a mapping',
      'name: x\nsteps:\n  - mine\n',
      3,
      'mine',
      /^steps\[0\]: expected a mapping, got the string "mine"/,
    ],
    ['mine zero', 'name: x\nsteps:\n  - mine: 0\n', 3, '0', 'steps[0].mine: must be at least 1, got 0'],
    [
      'mine nonsense',
      'name: x\nsteps:\n  - mine: lots\n',
      3,
      'lots',
      'steps[0].mine: the string "lots" does not fit here',
    ],
    [
      'placeholder where a literal is needed',
      'name: x\nsteps:\n  - mine: "${n}"\n',
      3,
      '"${n}"',
      'steps[0].mine: a "${…}" placeholder cannot be used here: the value must be written out (it is needed before the steps run)',
    ],
    [
      'mine both',
      'name: x\nsteps:\n  - mine: { blocks: 1, to: 5 }\n',
      3,
      'to',
      'steps[0].mine.to: give either blocks or to, not both',
    ],
    [
      'wait without bound',
      'name: x\nsteps:\n  - wait: { get_tokens: {}, until: { result.tokens: { present: true } } }\n',
      3,
      '{ get_tokens',
      'steps[0].wait.seconds: a wait needs a bound: seconds, blocks or both',
    ],
    [
      'wait with two calls',
      'name: x\nsteps:\n  - wait: { get_tokens: {}, get_balance: {}, until: { result.x: 1 }, seconds: 5 }\n',
      3,
      'get_balance',
      'steps[0].wait.get_balance: wait repeats one call; it already has get_tokens',
    ],
    [
      'wait without until',
      'name: x\nsteps:\n  - wait: { get_tokens: {}, seconds: 5 }\n',
      3,
      '{ get_tokens',
      'steps[0].wait.until: missing "until"',
    ],
    [
      'wait wallet conflict',
      'name: x\nwallets: { bob: {} }\nsteps:\n  - wait: { get_tokens: {}, until: { result.x: 1 }, seconds: 5, wallet: bob }\n    wallet: main\n',
      4,
      'bob }',
      'steps[0].wait.wallet: the step says wallet: main and the wait says wallet: bob; keep one',
    ],
    [
      'metadata fields and file',
      'name: x\nsteps:\n  - metadata: { name: m, fields: {}, file: x.json }\n',
      3,
      'file',
      'steps[0].metadata.file: give either fields or file, not both',
    ],
    [
      'metadata bad name',
      'name: x\nsteps:\n  - metadata: { name: my-meta, fields: {} }\n',
      3,
      'my-meta',
      'steps[0].metadata.name: "my-meta" is not a valid metadata name',
    ],
    [
      'call without method',
      'name: x\nsteps:\n  - call: { on: daemon }\n',
      3,
      '{ on',
      'steps[0].call.method: missing "method" (or "path" for a daemon HTTP endpoint)',
    ],
    [
      'path call on the wallet',
      'name: x\nsteps:\n  - call: { path: /get_info, on: wallet }\n',
      3,
      'wallet',
      /^steps\[0\]\.call\.on: path calls go to the daemon/,
    ],
    [
      'bad on',
      'name: x\nsteps:\n  - call: { method: get_info, on: deamon }\n',
      3,
      'deamon',
      'steps[0].call.on: "deamon" is not one of: wallet, daemon (did you mean "daemon"?)',
    ],
    [
      'transfer without amount',
      'name: x\nsteps:\n  - transfer: { to: "${main.address}" }\n',
      3,
      '{ to',
      'steps[0].transfer.amount: missing "amount"',
    ],
    [
      'transfer raw typo',
      'name: x\nsteps:\n  - transfer: { to: "${main.address}", amount: 1, priorty: 1 }\n',
      3,
      'priorty',
      /^steps\[0\]\.transfer\.priorty: unknown key "priorty" \(did you mean "priority"\?\)/,
    ],
    [
      'wallet name as address',
      'name: x\nwallets: { bob: {} }\nsteps:\n  - transfer: { to: bob, amount: 1 }\n',
      4,
      'bob',
      'steps[0].transfer.to: "bob" is a wallet name, not an address; write "${bob.address}"',
    ],
    [
      'unknown wallet',
      'name: x\nsteps:\n  - get_tokens: {}\n    wallet: bob\n',
      4,
      'bob',
      'steps[0].wallet: unknown wallet "bob"',
    ],
    [
      'reserved wallet name',
      'name: x\nwallets: { main: {} }\nsteps: [{ mine: 1 }]\n',
      2,
      'main',
      /^wallets\.main: "main" is the built-in wallet/,
    ],
    [
      'bad asset key',
      'name: x\nrequires: { unlocked: { sal1: 1 SAL1 } }\nsteps: [{ mine: 1 }]\n',
      2,
      'sal1',
      'requires.unlocked.sal1: "sal1" is not an asset (did you mean "SAL1"?)',
    ],
    [
      'unknown placeholder',
      'name: x\nsteps:\n  - transfer: { to: "${bob.address}", amount: 1 }\n',
      3,
      '"${bob',
      /^steps\[0\]\.transfer\.to: unknown name "bob" in \$\{bob\.address\}/,
    ],
    [
      'placeholder field typo',
      'name: x\nsteps:\n  - transfer: { to: "${main.adress}", amount: 1 }\n',
      3,
      '"${main',
      /^steps\[0\]\.transfer\.to: wallet main has no "adress" in \$\{main\.adress\} \(did you mean "address"\?\)/,
    ],
    [
      'saved later',
      'name: x\nsteps:\n  - transfer: { to: "${main.address}", amount: "${a}" }\n  - get_tokens: {}\n    save: { a: result.x }\n',
      3,
      '"${a}"',
      'steps[0].transfer.amount: ${a}: "a" is saved by step 2, which runs after this one',
    ],
    [
      'unterminated placeholder',
      'name: x\nsteps:\n  - transfer: { to: "${main.address", amount: 1 }\n',
      3,
      '"${main',
      /^steps\[0\]\.transfer\.to: unterminated placeholder/,
    ],
    [
      'revert without snapshot',
      'name: x\nsteps:\n  - revert: s1\n',
      3,
      's1',
      'steps[0].revert: no earlier snapshot is named "s1"',
    ],
    [
      'create_token metadata unknown',
      'name: x\nsteps:\n  - create_token: { ticker: ABCD, supply: 1, metadata: rich }\n',
      3,
      'rich',
      'steps[0].create_token.metadata: no earlier metadata step is named "rich"',
    ],
    [
      'create_token without supply',
      'name: x\nsteps:\n  - create_token: { ticker: ABCD }\n',
      3,
      '{ ticker',
      'steps[0].create_token.supply: missing "supply"',
    ],
    [
      'ticker as number',
      'name: x\nsteps:\n  - create_token: { ticker: 1234, supply: 1 }\n',
      3,
      '1234',
      'steps[0].create_token.ticker: expected a string, got the number 1234 (quote it: "1234")',
    ],
    [
      'expect_error code type',
      'name: x\nsteps:\n  - get_tokens: {}\n    expect_error: { code: seven }\n',
      4,
      'seven',
      'steps[0].expect_error.code: expected a number, got the string "seven"',
    ],
    [
      'save path',
      'name: x\nsteps:\n  - get_tokens: {}\n    save: { t: tokens }\n',
      4,
      'tokens',
      /^steps\[0\]\.save\.t: "tokens" must start at result or error/,
    ],
    [
      'save name reserved',
      'name: x\nsteps:\n  - get_tokens: {}\n    save: { height: result.h }\n',
      4,
      'height',
      'steps[0].save.height: "height" is reserved for placeholders; save under another name',
    ],
    [
      'bad backend',
      'name: x\nbackends: [sim, salvum]\nsteps: [{ mine: 1 }]\n',
      2,
      'salvum',
      'backends[1]: "salvum" is not one of: salvium, sim, monero (did you mean "salvium"?)',
    ],
    [
      'yaml syntax error',
      'name: x\nsteps:\n  - mine: [1\n  - mine: 2\n',
      4,
      '-',
      /^\(yaml\): YAML: Flow sequence in block collection must be sufficiently indented and end with a \]$/,
    ],
    [
      'yaml: unquoted brackets in a flow mapping',
      'name: x\nsteps:\n  - get_tokens: {}\n    save: { t: result.tokens[0] }\n',
      4,
      '[0]',
      /^\(yaml\): YAML: Unexpected flow-seq-start at node end: inside \{ … \} or \[ … \], quote values/,
    ],
    [
      'yaml tab indentation',
      'name: x\nsteps:\n\t- mine: 1\n',
      3,
      '\t',
      '(yaml): YAML: Tabs are not allowed as indentation',
    ],
    ['duplicate key', 'name: x\nname: y\nsteps: [{ mine: 1 }]\n', 2, 'name', '(yaml): YAML: Map keys must be unique'],
    [
      'two documents',
      'name: x\nsteps: [{ mine: 1 }]\n---\nname: y\n',
      3,
      '---',
      /^\(yaml\): YAML: a scenario file holds one YAML document/,
    ],
    ['empty file', '', 1, '', /^\(file\): a scenario file is a mapping \(name: …, steps: …\), this is nothing/],
    ['a list', '- mine: 1\n', 1, '-', /^\(file\): a scenario file is a mapping/],
  ];
  for (const [title, text, line, token, want] of cases) {
    it(title, () => {
      const ps = problemsOf(text);
      const col = (text.split('\n')[line - 1] ?? '').indexOf(token) + 1;
      expect(col, `"${token}" is on line ${line}`).toBeGreaterThan(0);
      const here = ps.filter((p) => p.pos.line === line && p.pos.col === col).map((p) => `${p.path}: ${p.message}`);
      const match = typeof want === 'string' ? here.includes(want) : here.some((l) => want.test(l));
      expect(match, `at ${line}:${col} wanted ${String(want)}\ngot:\n${brief(ps).join('\n')}`).toBe(true);
      for (const p of ps) {
        expect(p.pos.file).toBe('bad.yaml');
        expect(p.expected, `${p.path}: ${p.message}`).toBeTruthy();
      }
    });
  }

  it('reports every problem of a file at once, in file order, readable', () => {
    let err: unknown;
    try {
      parseScenario(
        [
          'description: 5', //                                     1
          'tgas: [x]', //                                           2
          'wallets:', //                                            3
          '  bob: { unlocked: { SAL1: 1.5 } }', //                  4
          'steps:', //                                              5
          '  - transfer: { to: bob, amout: 1 SAL1 }', //            6
          '  - mine: 5', //                                         7
          '    restart: wallet', //                                 8
          '  - transfer: { to: "${bob.address}", amount: 1.123456789 SAL1 }', // 9
          '  - get_balance: {}', //                                 10
          '    expect: { result.balances: { contain: x }, results.x: 1 }', // 11
          '  - restart: node', //                                   12
          '  - mien: 5', //                                         13
          '  - 5', //                                               14
        ].join('\n'),
        'many.yaml',
      );
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ScenarioError);
    const ps = (err as ScenarioError).problems;
    expect(brief(ps)).toEqual([
      '1:1 name: missing "name"',
      '1:14 description: expected a string, got the number 5 (quote it: "5")',
      '2:1 tgas: unknown key "tgas" (did you mean "tags"?)',
      '4:28 wallets.bob.unlocked.SAL1: 1.5 is not an amount: a bare number with a fraction is ambiguous; write "1.5 SAL1" for coins or an integer of atomic units',
      '6:15 steps[0].transfer.amount: missing "amount"',
      '6:21 steps[0].transfer.to: "bob" is a wallet name, not an address; write "${bob.address}"',
      '6:26 steps[0].transfer.amout: unknown key "amout" (did you mean "amount"?); other keys are sent to transfer as written, but this one looks like a typo — use call: {method: transfer, params: …} to send it anyway',
      '8:5 steps[1].restart: a step has exactly one action; this one already has mine (split it into two steps)',
      '9:47 steps[2].transfer.amount: "1.123456789 SAL1" is not an amount: SAL1 has 8 decimals, this has 9',
      '11:34 steps[3].expect["result.balances"].contain: unknown matcher "contain" (did you mean "contains"?); to compare with an object that has a "contain" key write eq: {contain: …}',
      '11:48 steps[3].expect["results.x"]: "results.x" must start at result or error (the response is {result: …} or {error: …}) (did you mean "result"?)',
      '12:14 steps[4].restart: "node" is not one of: daemon, wallet',
      '13:5 steps[5].mien: unknown key "mien" (did you mean "mine"?)',
      '14:5 steps[6]: expected a mapping, got the number 5',
    ]);
    const text = (err as ScenarioError).message;
    expect(text.split('\n')).toHaveLength(ps.length);
    for (const line of text.split('\n')) expect(line).toMatch(/^many\.yaml:\d+:\d+: \S+: .+ \(expected .+\)$/);
    // never zod's raw JSON, never a stack trace
    expect(text).not.toMatch(/"code":|invalid_type|unrecognized_keys|\n\s+at /);
  });

  it('reports every YAML syntax error, one per line, in order', () => {
    const ps = problemsOf('name: x\nname: y\nsteps:\n\t- mine: 1\n  - mine: [1\n');
    expect(brief(ps)).toEqual([
      '2:1 (yaml): YAML: Map keys must be unique',
      '4:1 (yaml): YAML: Tabs are not allowed as indentation',
      '6:1 (yaml): YAML: Flow sequence in block collection must be sufficiently indented and end with a ]',
    ]);
  });

  it('points bad-many.yaml problems at their lines', async () => {
    const err = await loadScenario(fixture('bad-many.yaml')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ScenarioError);
    const ps = (err as ScenarioError).problems;
    expect(ps.length).toBeGreaterThanOrEqual(30);
    const lines = ps.map((p) => p.pos.line);
    expect([...lines].sort((a, b) => a - b)).toEqual(lines);
    expect(ps.every((p) => p.pos.file === fixture('bad-many.yaml'))).toBe(true);
  });

  it('reports an unreadable file as a ScenarioError', async () => {
    const err = await loadScenario(fixture('does-not-exist.yaml')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ScenarioError);
    expect((err as ScenarioError).message).toMatch(
      /does-not-exist\.yaml:1:1: \(file\): cannot read the scenario file: no such file/,
    );
  });
});
