// The scenario-language reference (docs/scenario-language.md), generated from the JSON Schema that
// schema.ts exports: top-level keys, every step kind with its fields, matchers, placeholders and
// amounts, with examples quoted from the example scenarios at generation time. The hand-written
// parts (intro, notes per step kind, outro) live here too, so the whole file is reproducible:
// `npm run docs` writes it, test/scenario/docs-file.test.ts keeps it current.
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { isMap, isSeq, parseDocument } from 'yaml';
import { AMOUNT_DECIMALS, AMOUNT_FORMS, amountError, parseAmount } from '../common/amounts.js';
import { METADATA_FIELDS, SCOPE_ROOTS, WALLET_FIELDS } from './interpolate.js';
import { limitsMarkdown } from './limits.js';
import { parseScenario } from './parse.js';
import { ASSET_RE, KNOWN_PARAMS, NAME_RE, RESERVED_WALLET_NAMES, STEP_COMMON_KEYS, WALLET_METHODS, scenarioJsonSchema } from './schema.js';
import type { WalletMethod } from './types.js';

type Json = Record<string, unknown>;

export interface DocsOptions {
  /** Folder of the example scenarios (quoted in the reference). */
  scenariosDir: string;
  /** The JSON Schema to document (default: scenarioJsonSchema()). */
  schema?: Json;
  /** How the reference links to the scenarios folder (default: ../scenarios, as seen from docs/). */
  scenariosLink?: string;
}

// ---- small helpers ----

const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const obj = (v: unknown): Json => (isObj(v) ? v : {});
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const strings = (v: unknown): string[] => list(v).filter((x): x is string => typeof x === 'string');
const code = (s: string): string => (s.includes('`') ? `\`\` ${s} \`\`` : `\`${s}\``);

/**
 * Text for Markdown tables and paragraphs: outside code spans `<…>` would be read as HTML; `|` would
 * end a table cell anywhere (GFM wants `\\|` even inside code spans in a table).
 */
function text(s: string): string {
  return s
    .replace(/\s*\n\s*/g, ' ')
    .split(/(`[^`]*`)/)
    .map((part) => (part.startsWith('`') ? part : part.replace(/\\/g, '\\\\').replace(/</g, '&lt;')).replace(/\|/g, '\\|'))
    .join('');
}

function table(header: string[], rows: string[][]): string {
  return [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
}

const fence = (lang: string, body: string): string => `\`\`\`${lang}\n${body.replace(/\n+$/, '')}\n\`\`\``;

/** The branches of an anyOf without the `null` one, and whether there was one. */
function nonNull(node: Json): { branches: Json[]; nullable: boolean } {
  const any = list(node.anyOf).filter(isObj);
  const branches = any.filter((b) => b.type !== 'null');
  return { branches, nullable: branches.length < any.length };
}

/** A node that is an object with an anyOf of itself and null is documented as the object. */
function unwrap(node: Json): Json {
  const { branches, nullable } = nonNull(node);
  if (nullable && branches.length === 1) return { ...branches[0], description: node.description ?? branches[0]!.description };
  return node;
}

function isAmount(node: Json): boolean {
  return typeof node.description === 'string' && node.description.startsWith(AMOUNT_FORMS);
}

const MAX_INT = Number.MAX_SAFE_INTEGER;

// ---- types, defaults, descriptions ----

function keyKind(node: Json): string {
  const pattern = obj(node.propertyNames).pattern;
  if (pattern === ASSET_RE.source) return 'asset';
  if (pattern === NAME_RE.source) return 'name';
  return 'key';
}

const atMost = (node: Json): string => (typeof node.maximum === 'number' && node.maximum < MAX_INT ? `, ≤ ${node.maximum} ([limits](#limits))` : '');

/** A short type for a schema node, with links to the sections that explain it. */
export function typeText(node: Json): string {
  if (typeof node.$ref === 'string') {
    const name = node.$ref.replace(/^#\/\$defs\//, '');
    return name === 'matcher' ? '[matcher](#expectations-and-matchers)' : name;
  }
  if (isAmount(node)) return '[amount](#amounts)';
  if ('const' in node) return code(JSON.stringify(node.const));
  if (Array.isArray(node.enum)) return `one of ${node.enum.map((v) => code(String(v))).join(', ')}`;
  if (Array.isArray(node.anyOf)) {
    const { branches, nullable } = nonNull(node);
    const parts = [...new Set(branches.map((b) => ('not' in b ? 'plain value' : typeText(b))))];
    return `${parts.join(' or ')}${nullable ? ' (may be empty)' : ''}`;
  }
  switch (node.type) {
    case 'string':
      return node.pattern === NAME_RE.source ? '[name](#names-assets-and-backends)' : 'string';
    case 'integer': {
      const min = typeof node.minimum === 'number' && node.minimum > -MAX_INT ? node.minimum : undefined;
      return `${min === undefined ? 'integer' : `integer ≥ ${min}`}${atMost(node)}`;
    }
    case 'number':
      return `${typeof node.exclusiveMinimum === 'number' ? `number > ${node.exclusiveMinimum}` : 'number'}${atMost(node)}`;
    case 'boolean':
      return 'boolean';
    case 'array': {
      const items = typeText(obj(node.items));
      return `${node.minItems === 1 ? 'non-empty ' : ''}list of ${items}`;
    }
    case 'object': {
      if (isObj(node.properties)) return 'mapping';
      const addl = node.additionalProperties;
      if (isObj(addl)) return `mapping of ${keyKind(node)} → ${Object.keys(addl).length === 0 ? 'any value' : typeText(addl)}`;
      return 'mapping';
    }
    default:
      return 'any value';
  }
}

/** The default of a field: the JSON Schema `default`, else what its description says. */
export function defaultText(node: Json): string {
  if ('default' in node) return code(JSON.stringify(node.default));
  const d = typeof node.description === 'string' ? node.description : '';
  const inParens = /\(default:? ([^)]+)\)/.exec(d);
  if (inParens) return text(inParens[1]!);
  const before = /(\S+) \(default\)/.exec(d);
  if (before) return text(before[1]!);
  const trailing = /\bdefault: ([^;,)]+)$/.exec(d);
  if (trailing) return text(trailing[1]!);
  return '';
}

function descriptionText(node: Json): string {
  const d = typeof node.description === 'string' ? node.description : '';
  if (isAmount(node)) return d.slice(AMOUNT_FORMS.length).includes('${') ? 'an amount, or a `${…}` placeholder' : 'an amount';
  return text(d);
}

function examplesText(node: Json): string {
  const ex = list(node.examples);
  return ex.length ? ` Examples: ${ex.map((e) => code(typeof e === 'string' ? e : JSON.stringify(e))).join(', ')}.` : '';
}

// ---- field tables ----

interface Row {
  name: string;
  node: Json;
  required: string;
}

/** Keys named by the oneOf/anyOf alternatives of an object (`{required: [...]}` branches only). */
function alternatives(node: Json): { kind: 'oneOf' | 'anyOf'; sets: string[][] } | undefined {
  for (const kind of ['oneOf', 'anyOf'] as const) {
    const branches = list(node[kind]).filter(isObj);
    if (branches.length && branches.every((b) => Object.keys(b).length === 1 && Array.isArray(b.required))) {
      return { kind, sets: branches.map((b) => strings(b.required)) };
    }
  }
  return undefined;
}

function alternativesNote(node: Json, prefix = ''): string | undefined {
  const alt = alternatives(node);
  if (!alt) return undefined;
  const sets = alt.sets.map((s) => s.map((k) => code(prefix + k)).join(' + '));
  return alt.kind === 'oneOf' ? `Give exactly one of: ${sets.join(', ')}.` : `Give at least one of: ${sets.join(', ')}.`;
}

/** Rows for the fields of an object, nested objects flattened (`destinations[].to`, `wallets.<name>.unlocked`). */
function rows(node: Json, prefix = '', stop: readonly string[] = [], depth = 0): Row[] {
  const out: Row[] = [];
  const props = obj(node.properties);
  const required = new Set(strings(node.required));
  const alt = new Set((alternatives(node)?.sets ?? []).flat());
  for (const [key, raw] of Object.entries(props)) {
    const child = unwrap(obj(raw));
    const name = `${prefix}${key}`;
    out.push({ name, node: obj(raw), required: required.has(key) ? 'yes' : alt.has(key) ? 'see below' : 'no' });
    if (depth >= 3 || stop.includes(key)) continue;
    out.push(...nested(child, name, depth));
  }
  return out;
}

function nested(child: Json, name: string, depth: number): Row[] {
  if (child.type === 'object' && isObj(child.properties)) return rows(child, `${name}.`, [], depth + 1);
  if (child.type === 'array' && isObj(child.items) && isObj(child.items.properties)) return rows(child.items, `${name}[].`, [], depth + 1);
  if (child.type === 'object' && isObj(child.additionalProperties)) {
    const addl = unwrap(child.additionalProperties);
    if (addl.type === 'object' && isObj(addl.properties)) return rows(addl, `${name}.<${keyKind(child)}>.`, [], depth + 1);
  }
  return [];
}

/** A field whose value is another step kind's value: documented there. */
interface Link {
  type: string;
  description: string;
  required?: string;
}

function fieldTable(node: Json, opts: { stop?: readonly string[]; link?: (key: string, node: Json) => Link | undefined } = {}): string {
  const stop = opts.stop ?? [];
  const all = rows(node, '', stop);
  const body = all.map((r) => {
    const link = opts.link?.(r.name, r.node);
    if (link) return [code(r.name), link.type, link.required ?? r.required, '', link.description];
    return [code(r.name), typeText(r.node), r.required, defaultText(r.node), descriptionText(r.node) + examplesText(r.node)];
  });
  const notes: string[] = [];
  const own = alternativesNote(node);
  if (own) notes.push(own);
  for (const r of all) {
    if (opts.link?.(r.name, r.node) || stop.includes(r.name)) continue;
    const child = unwrap(r.node);
    const target = child.type === 'array' ? obj(child.items) : child;
    const note = alternativesNote(target, `${r.name}${child.type === 'array' ? '[]' : ''}.`);
    if (note && isObj(target.properties)) notes.push(`In ${code(r.name)}: ${note.charAt(0).toLowerCase()}${note.slice(1)}`);
  }
  return [table(['field', 'type', 'required', 'default', 'description'], body), ...notes].join('\n\n');
}

// ---- example scenarios ----

interface ExampleFile {
  name: string;
  text: string;
  /** Each step: its action, whether it checks something, its source text (dedented, as a list item). */
  steps: { action: string; checks: boolean; text: string }[];
}

function readExamples(dir: string, actionKeys: readonly string[]): ExampleFile[] {
  const files = readdirSync(dir).filter((f) => f.endsWith('.yaml')).sort();
  return files.map((name) => {
    const src = readFileSync(join(dir, name), 'utf8');
    // Quoting a file that does not validate would teach a mistake: refuse (this throws with every problem).
    parseScenario(src, join(dir, name));
    const doc = parseDocument(src);
    const seq = doc.get('steps', true);
    const steps: ExampleFile['steps'] = [];
    if (isSeq(seq)) {
      for (const item of seq.items) {
        if (!isMap(item) || !item.range) continue;
        const keys = item.items.map((p) => String((p.key as { value?: unknown } | null)?.value ?? p.key));
        const action = keys.find((k) => actionKeys.includes(k));
        if (!action) continue;
        const lineStart = src.lastIndexOf('\n', item.range[0] - 1) + 1;
        const lines = src.slice(lineStart, item.range[1]).replace(/\s+$/, '').split('\n');
        const indent = /^\s*/.exec(lines[0]!)![0].length;
        steps.push({ action, checks: keys.includes('expect') || keys.includes('expect_error'), text: lines.map((l) => l.slice(Math.min(indent, /^\s*/.exec(l)![0].length))).join('\n') });
      }
    }
    return { name, text: src, steps };
  });
}

/** The example for a step kind: a step that checks something (expect before expect_error), the shortest such. */
function pickExample(files: ExampleFile[], action: string): { file: string; text: string } | undefined {
  const all = files.flatMap((f) => f.steps.filter((s) => s.action === action).map((s) => ({ file: f.name, ...s })));
  if (!all.length) return undefined;
  const score = (s: (typeof all)[number]): number => (s.checks ? (/\bexpect:/.test(s.text) ? 0 : 1) : 2);
  const best = [...all].sort((a, b) => score(a) - score(b) || a.text.split('\n').length - b.text.split('\n').length)[0]!;
  return { file: best.file, text: best.text };
}

/**
 * Examples for step kinds that no example scenario uses yet. Each is validated here (as the steps
 * of a scenario with the given wallets), so a wrong one fails the generator instead of misleading.
 */
const FALLBACK_EXAMPLES: Record<string, { steps: string; wallets?: string[] }> = {
  snapshot: {
    wallets: ['bob'],
    steps: [
      '- name: checkpoint before the transfer',
      '  snapshot: before_transfer',
      '- transfer: { to: "${bob.address}", amount: 1 SAL1 }',
      '- mine: 1',
      '- name: back to the checkpoint, chain and wallets as they were',
      '  revert: before_transfer',
    ].join('\n'),
  },
};
FALLBACK_EXAMPLES.revert = FALLBACK_EXAMPLES.snapshot!;

function fallbackExample(action: string): string | undefined {
  const ex = FALLBACK_EXAMPLES[action];
  if (!ex) return undefined;
  const wallets = ex.wallets?.length ? `wallets:\n${ex.wallets.map((w) => `  ${w}: {}`).join('\n')}\n` : '';
  const doc = `name: example\n${wallets}steps:\n${ex.steps.split('\n').map((l) => `  ${l}`).join('\n')}\n`;
  parseScenario(doc, `docs example for ${action}`);
  return ex.steps;
}

// ---- hand-written text ----

/** What each placeholder root means; checked against interpolate.ts so a new root cannot go undocumented. */
const PLACEHOLDERS: { form: string; root: string; meaning: string }[] = [
  { form: '${<saved name>}', root: '', meaning: 'a value an earlier step saved with `save:`' },
  { form: '${<wallet>.address}', root: '', meaning: "the wallet's address to send to at the current height: on Salvium the CN address below height 1100 and the Carrot address from 1100" },
  { form: '${<wallet>.cn}', root: '', meaning: "the wallet's CryptoNote address (`SaLvT…`)" },
  { form: '${<wallet>.carrot}', root: '', meaning: "the wallet's Carrot address (`SC1T…`; empty on Monero)" },
  { form: '${wallets.<wallet>.address}', root: 'wallets', meaning: 'the long form of the three above (also `.cn`, `.carrot`); `<wallet>` is `main` or a declared wallet' },
  { form: '${metadata.<name>.url}', root: 'metadata', meaning: 'what an earlier `metadata` step serves: `.url`, `.sha256` (64 hex characters) and `.size` (bytes), exactly as served' },
  { form: '${height}', root: 'height', meaning: "the daemon's height (number of blocks) when the step starts" },
  { form: '${env.NAME}', root: 'env', meaning: 'the environment variable NAME of the `saltnet run` process: a secret, replaced by `<redacted env.NAME>` wherever its value appears in the artifacts, logs and reports' },
  { form: '${env.public.NAME}', root: 'env', meaning: 'the same value, marked as no secret: not redacted (unless the scenario also names it as `${env.NAME}`)' },
];

function checkVocabulary(): void {
  const roots = PLACEHOLDERS.map((p) => p.root).filter(Boolean);
  const missing = SCOPE_ROOTS.filter((r) => !roots.includes(r));
  if (missing.length) throw new Error(`docs: placeholder roots without documentation: ${missing.join(', ')} (add them to PLACEHOLDERS in harness/scenario/docs.ts)`);
  const walletForms = PLACEHOLDERS.map((p) => /^\$\{<wallet>\.(\w+)\}$/.exec(p.form)?.[1]).filter(Boolean);
  const missingFields = WALLET_FIELDS.filter((f) => !walletForms.includes(f));
  if (missingFields.length) throw new Error(`docs: wallet placeholder fields without documentation: ${missingFields.join(', ')}`);
  if (METADATA_FIELDS.join() !== 'url,sha256,size') throw new Error(`docs: the metadata fields changed (${METADATA_FIELDS.join(', ')}): update PLACEHOLDERS in harness/scenario/docs.ts`);
}

/** Notes per step kind that the schema's one-line description cannot carry. */
const STEP_NOTES: Record<string, string> = {
  call:
    'Any JSON-RPC method of the wallet RPC (`on: wallet`, the default, with the step\'s `wallet`) or of the daemon (`on: daemon`), or a daemon URI endpoint such as `/get_info` or `/mining_status` with `path:` (the wallet RPC has only `/json_rpc`). The response is checked as `{result: …}` or `{error: {code, message}}`; a daemon endpoint that answers with an HTTP error status gives `error.code` = that status. Use it for anything the readable forms below do not cover, or to send a request exactly as written (the readable forms fill in fields for you).',
  get_balance:
    'The request is sent as written. The answer nests its records under `result.balances[]` (one per asset held, zero balances dropped; no `balances` key at all when nothing is held), and a wallet that never received the asset answers error `-1 Source asset \'SAL1\' not found in wallet`.',
  getbalance: 'The alias of `get_balance`, with the same request and answer.',
  transfer:
    'The readable form becomes the real request: each destination gets `address` and `amount` (atomic units) and `asset_type`; `source_asset` and `dest_asset` are set to the asset (SAL1 unless `asset:` says otherwise) and `tx_type` to 3 (TRANSFER). On the `monero` backend no asset fields are added. Any other key (e.g. `priority`, `do_not_relay`) is passed on unchanged. One transaction carries at most 7 destinations and 64 inputs; more is refused with `-18`: use `transfer_split`. Token transfers also need `transfer_split` (a token transfer is two transactions).',
  transfer_split: 'Filled in as for `transfer`. The answer has lists: `tx_hash_list`, `fee_list`, `amount_list`, …, one entry per transaction.',
  sweep_all:
    '`to` is sent as `address`, `asset` as `asset_type` (SAL1 unless given). The answer has lists (`tx_hash_list`, `amount_list`, …) like `transfer_split`.',
  sweep_single: '`to` is sent as `address`, `asset` as `asset_type` (SAL1 unless given). Find a key image with `call: { method: incoming_transfers, params: { transfer_type: available } }` and `save` it.',
  get_transfers:
    'The request is sent as written. Every group (`in`, `out`, `pending`, `failed`, `pool`) defaults to false, so an empty request returns nothing: ask for the groups you want. Each group is omitted from the answer when it is empty.',
  create_token:
    'Needs the daemon\'s next block to be hard fork 11 or later (height ≥ 1200 on testnet) and burns 1000 SAL1 (10000 for premium tickers) plus the fee, so the runner brings a scenario with a `create_token` step to height 1201 and 1001 unlocked SAL1 unless `requires` asks for more. The wallet upper-cases the ticker; the token is listed as `sal` + ticker (e.g. `salABCD`) by `get_tokens` one block after creation. With `metadata: <name>`, the `url`, `hash` and `size` of that earlier `metadata` step are filled in.',
  get_tokens: 'The request is sent as written. `regex` is not a regular expression: it is a plain, case-sensitive substring filter. The answer is `result.tokens` (omitted when empty).',
  mine: 'Mines on the daemon until the chain has exactly that height, switching the mining address from CN to Carrot at height 1100 as needed. A miner cannot stop between two blocks, so it often finds a block or more past the target; saltnet pops those again (`/pop_blocks`) when they hold nothing but their coinbase, so `mine: 5` adds exactly 5 blocks on every backend (a block past the target that holds a transaction, one that reached the pool while mining, is kept). `mine: 5` is the same as `mine: { blocks: 5 }`. Wallets see the new blocks after their next refresh (the wallet RPC refreshes on its own every 20 s; `wait` refreshes between tries).',
  wait:
    'Repeats one call (a `call` or one readable wallet form) until every expectation under `until` holds, or fails when the bound runs out (`seconds`, `blocks`, whichever comes first). Between tries the scenario\'s wallets are refreshed, and with `mine: true` one block is mined. The step\'s `save` applies to the answer that ended the wait.',
  metadata:
    'Builds a JSON blob (from `fields`, or from a `file` found relative to the scenario file, then to the working directory) and serves it over HTTP on 127.0.0.1 for the rest of the run. `${metadata.<name>.url}`, `.sha256` and `.size` are exactly what is served; `create_token: { …, metadata: <name> }` uses them.',
  restart: 'Stops the process gracefully and starts it again on the same ports and data: `daemon`, or `wallet` (the wallet RPC of the step\'s `wallet`). The chain and the wallet files are kept.',
  snapshot:
    'Checkpoints the whole testnet — the daemon\'s chain and every wallet — under a name. A later `revert: <name>` rolls the testnet back to it.',
  revert: 'Rolls the whole testnet — the daemon\'s chain and every wallet — back to an earlier `snapshot` of that name. The name must belong to a `snapshot` step earlier in the file.',
};

const INTRO = `A scenario file is a YAML document that says what a Salvium testnet must hold before it starts
(\`requires\`, \`wallets\`) and then what to do and what to expect (\`steps\`). \`saltnet run\` runs them
against a private testnet — real Salvium binaries when it finds them, else the built-in simulator:

\`\`\`sh
npx saltnet run 'scenarios/*.yaml'
npx saltnet run scenarios/token-rejections.yaml --isolation fresh --keep
\`\`\`

Every file is checked before anything starts. A bad file is reported with its file, line and
column, what is wrong and what would fit there — every problem at once. Editors that read JSON
Schema (for example VS Code with the YAML extension) complete and check scenario files as you
type when the file starts with

\`\`\`yaml
# yaml-language-server: $schema=./scenario.schema.json
\`\`\`

(the schema is [scenarios/scenario.schema.json](SCENARIOS/scenario.schema.json); \`npm run schema\` regenerates it).`;

const FIRST_EXAMPLE_NOTE = `Read it top to bottom: the runner brings the chain to height 1201 (tokens are active from
1200) and makes sure the main wallet holds 1001 unlocked SAL1; then each step calls one wallet
method and checks the answer. \`result.…\` paths point into the JSON-RPC answer; \`{ absent: true }\`
and \`{ length: 1 }\` are [matchers](#expectations-and-matchers); \`1000 SAL1\` is an [amount](#amounts).`;

const OUTRO = `## When a step fails

The runner prints the failing step, its \`file:line:col\`, what was expected and what was there, and
the last log lines of each process; the artifacts folder (\`.saltnet/artifacts\` by default) keeps the
resolved scenario, every command line, every process log and a transcript of every RPC request and
response. \`saltnet repro <artifact folder>\` replays a failed run.

Scenarios in [scenarios/](SCENARIOS/) pass on the simulator and are written to pass unchanged on real
Salvium: they check codes, messages and relations (\`gt: 0\`, \`contains\`), never exact fees, input
counts or other details that only the simulator fixes. Write yours the same way. The traps that
catch people working from the short public Salvium spec — the address switch at height 1100,
\`balances[]\`, the 7-destination limit, token costs — are in [troubleshooting.md](troubleshooting.md).`;

// ---- sections ----

function stepKinds(schema: Json): { kinds: string[]; step: Json } {
  const step = obj(obj(obj(schema.properties).steps).items);
  const kinds = list(step.oneOf)
    .map((b) => strings(obj(b).required)[0])
    .filter((k): k is string => typeof k === 'string');
  return { kinds, step };
}

/** Every step kind the schema defines (the keys a step must have exactly one of). */
export function documentedStepKinds(schema: Json = scenarioJsonSchema()): string[] {
  return stepKinds(schema).kinds;
}

const anchor = (kind: string): string => `step-${kind.replace(/_/g, '-')}`;

function stepSection(kind: string, node: Json, stepProps: Json, files: ExampleFile[], kinds: string[], scenariosLink: string): string {
  const out: string[] = [`<a id="${anchor(kind)}"></a>`, '', `### \`${kind}\``, ''];
  const desc = typeof node.description === 'string' ? node.description : '';
  if (desc) out.push(`In short: ${text(desc)}.`, '');
  const note = STEP_NOTES[kind];
  if (note) out.push(note, '');
  const core = unwrap(node);
  const { branches, nullable } = nonNull(node);
  if (core.type === 'object' && isObj(core.properties)) {
    out.push(`Value: a mapping${nullable ? ' (may be empty)' : ''}.`, '');
    // A field holding exactly what another step kind holds (wait's call or wallet method) links there.
    const same = (key: string, n: Json): boolean => kinds.includes(key) && key !== kind && JSON.stringify(n) === JSON.stringify(stepProps[key]);
    const link = (key: string, n: Json): Link | undefined =>
      same(key, n) ? { type: `as the [\`${key}\`](#${anchor(key)}) step`, description: `the call to repeat, written as in a \`${key}\` step`, required: 'one of these' } : undefined;
    out.push(fieldTable(core, { stop: Object.keys(obj(core.properties)).filter((k) => same(k, obj(obj(core.properties)[k]))), link }), '');
  } else if (branches.length > 1) {
    out.push('Value, one of:', '');
    for (const b of branches) {
      if (b.type === 'object' && isObj(b.properties)) out.push(`- a mapping:`, '', fieldTable(b).replace(/^/gm, '  ').replace(/^ +$/gm, ''), '');
      else out.push(`- ${typeText(b)}${b.description ? ` — ${descriptionText(b)}` : ''}`);
    }
    out.push('');
  } else {
    out.push(`Value: ${typeText(node)}.`, '');
  }
  if ((WALLET_METHODS as readonly string[]).includes(kind)) {
    const own = Object.keys(obj(core.properties));
    const known = KNOWN_PARAMS[kind as WalletMethod].filter((k) => !own.includes(k));
    const lead = own.length ? `Other keys are sent to \`${kind}\` as written. The raw request fields` : 'The request fields';
    out.push(`${lead} of \`${kind}\` are ${known.map(code).join(', ')}; a key that looks like a misspelling of one of these is reported as an error (send it with \`call\` if you mean it).`, '');
  }
  const ex = pickExample(files, kind);
  const exampleText = ex?.text ?? fallbackExample(kind);
  if (!exampleText) throw new Error(`docs: no example for the step kind "${kind}": use it in a scenario under scenarios/ or add it to FALLBACK_EXAMPLES in harness/scenario/docs.ts`);
  out.push(ex ? `Example, from [${ex.file}](${scenariosLink}/${ex.file}):` : 'Example:', '', fence('yaml', exampleText), '');
  const users = files.filter((f) => f.steps.some((s) => s.action === kind)).map((f) => `[${f.name}](${scenariosLink}/${f.name})`);
  if (users.length) out.push(`Used in: ${users.join(', ')}.`, '');
  return out.join('\n');
}

function matcherSection(schema: Json): string {
  const m = obj(obj(schema.$defs).matcher);
  const props = obj(m.properties);
  const body = Object.entries(props).map(([k, v]) => {
    const node = obj(v);
    const operand = isObj(node) && (node.type || node.anyOf || node.enum || 'const' in node || node.$ref) ? typeText(node) : 'any value';
    return [code(k), operand, descriptionText(node)];
  });
  return [
    '## Expectations and matchers',
    '',
    '`expect` maps paths into the answer to what must be there. A path starts at `result` or `error`',
    '(the answer is `{result: …}` or `{error: {code, message}}`) and goes on with `.key`, `[index]` or',
    '`["key.with.dots"]`: `result.tx_hash`, `result.balances[0].unlocked_balance`, `result["token.version"]`.',
    'Every expectation of a step must hold.',
    '',
    'The value is either a plain value or a matcher. A plain value must be deeply equal to what is',
    'there, where numbers and [amounts](#amounts) compare exactly by value (`result.amount: 2.5 SAL1`',
    'holds for `250000000`) and a missing key counts as an empty list (the RPC servers omit empty',
    'lists). A matcher is a mapping with exactly one of these keys:',
    '',
    table(['matcher', 'operand', 'holds when'], body),
    '',
    'To combine matchers write `all: [{ gte: 1 }, { lte: 5 }]`. A list `contains` a mapping when one',
    'of its elements has all of that mapping\'s fields with equal values, so',
    '`result.in: { contains: { txid: "${tx}", type: in } }` finds one transfer among many. To compare',
    'with a mapping that has a key named like a matcher, write `eq: { … }`.',
    '',
    '`expect_error` says the step must answer an error instead: `{ code: -7, message: Token already exists. }`;',
    'leave out `code` or `message` to accept any, and `message` takes a matcher too',
    '(`{ message: { contains: not found } }`). A step without `expect_error` fails on any error answer.',
  ].join('\n');
}

function placeholderSection(): string {
  checkVocabulary();
  return [
    '## Placeholders',
    '',
    'Strings in steps may hold `${…}` placeholders, resolved just before the step runs:',
    '',
    table(['placeholder', 'value'], PLACEHOLDERS.map((p) => [code(p.form), text(p.meaning)])),
    '',
    '`<wallet>` is `main` (the wallet every scenario has) or a wallet declared under `wallets`.',
    'A string that is exactly one placeholder takes the value\'s own type (`amount: "${amount}"` stays a',
    'number); placeholders inside longer text are turned into text. `$${` writes a literal `${`.',
    'Placeholders are checked before the run: an unknown name, a value saved only by a later step or a',
    'misspelt field is reported with its line and column. They cannot be used where the value is',
    'needed before the steps run (`requires`, `wallets`, names of wallets, saves, metadata and',
    'snapshots), and the paths under `save` are not interpolated.',
  ].join('\n');
}

function amountSection(): string {
  const ok = ['150000000', '"150000000"', '1.5 SAL1', '0.00000001 SAL1', '2 SAL', '0.5 XMR'];
  const okRows = ok.map((w) => {
    const v = w.startsWith('"') ? w.slice(1, -1) : /^\d+$/.test(w) ? Number(w) : w;
    return [code(w), code(parseAmount(v).toString())];
  });
  const bad: [string, unknown][] = [['1.5', 1.5], ['1.5SAL1', '1.5SAL1'], ['1 sal1', '1 sal1'], ['0.123456789 SAL1', '0.123456789 SAL1'], ['-1', -1]];
  const badRows = bad.map(([w, v]) => [code(w), text(amountError(v) ?? 'accepted')]);
  const decimals = Object.entries(AMOUNT_DECIMALS).map(([u, d]) => `${u} ${d}`).join(', ');
  return [
    '## Amounts',
    '',
    `Amounts are exact: ${text(AMOUNT_FORMS.replace(/^an amount: /, ''))}. Decimals per unit: ${decimals}`,
    '(1 SAL1 = 100000000 atomic units). No floating point is involved anywhere. In YAML `1.5 SAL1` needs',
    'no quotes; a bare `1.5` is refused because it is ambiguous.',
    '',
    table(['written', 'atomic units'], okRows),
    '',
    table(['written', 'refused because'], badRows),
    '',
    'The unit only fixes the number of decimals; the asset is chosen by `asset:` (tokens have 8',
    'decimals, like SAL1). Amounts are accepted wherever the schema says *amount*, and by the',
    'comparison matchers (`gt: 1000 SAL1`) and plain values in expectations.',
  ].join('\n');
}

function namesSection(schema: Json): string {
  const backends = strings(obj(obj(obj(schema.properties).backends).items).enum);
  return [
    '## Names, assets and backends',
    '',
    `- **Names** of wallets, saved values, metadata and snapshots: letters, digits and \`_\`, not starting with a digit (\`${NAME_RE.source}\`).`,
    `  Wallets cannot be named ${RESERVED_WALLET_NAMES.map(code).join(', ')}; saved values cannot take those names or a wallet's name.`,
    `- **Assets** (the keys of \`unlocked\`): \`SAL1\`, \`SAL\`, \`XMR\`, or a token: lower-case \`sal\` + 4 upper-case letters or digits, e.g. \`salABCD\` (\`${ASSET_RE.source}\`).`,
    `- **Backends** (\`backends:\`): ${backends.map(code).join(', ')}. A scenario that lists backends is skipped on the others; a scenario with a \`create_token\` step is skipped on \`monero\`, which has no tokens.`,
  ].join('\n');
}

function topLevelSection(schema: Json): string {
  return [
    '## Top-level keys',
    '',
    fieldTable(schema, { stop: ['steps'], link: (key, n) => (key === 'steps' ? { type: `${n.minItems === 1 ? 'non-empty ' : ''}list of [steps](#steps)`, description: descriptionText(n) } : undefined) }),
    '',
    'Before the first step the runner brings the chain to `requires.height` (at least 1201 when the',
    'scenario creates a token), makes sure `main` holds the `requires.unlocked` amounts unlocked, and',
    'creates each declared wallet, funding it from `main` with its `unlocked` amounts. With',
    '`--isolation shared` (the default) scenarios share a chain per worker but each gets fresh wallets;',
    'with `--isolation fresh` each gets its own testnet.',
  ].join('\n');
}

function stepsSection(schema: Json, files: ExampleFile[], scenariosLink: string): string {
  const { kinds, step } = stepKinds(schema);
  const props = obj(step.properties);
  const common: Json = { type: 'object', properties: Object.fromEntries(STEP_COMMON_KEYS.map((k) => [k, props[k]])) };
  const summary = kinds.map((k) => {
    const d = typeof obj(props[k]).description === 'string' ? String(obj(props[k]).description) : '';
    return [`[\`${k}\`](#${anchor(k)})`, text(d)];
  });
  return [
    '## Steps',
    '',
    `Each step has exactly one action — one of the keys below — and may have ${STEP_COMMON_KEYS.map(code).join(', ')}.`,
    'Steps run in order; the first that fails ends the scenario.',
    '',
    fieldTable(common, { stop: ['expect'] }),
    '',
    table(['action', 'what it does'], summary),
    '',
    '## Step kinds',
    '',
    ...kinds.map((k) => stepSection(k, obj(props[k]), props, files, kinds, scenariosLink)),
  ].join('\n');
}

// ---- the document ----

/** docs/scenario-language.md as Markdown. */
export function scenarioLanguageMarkdown(opts: DocsOptions): string {
  const schema = opts.schema ?? scenarioJsonSchema();
  const link = opts.scenariosLink ?? '../scenarios';
  const { kinds } = stepKinds(schema);
  const files = readExamples(opts.scenariosDir, kinds);
  const file = (name: string): ExampleFile => {
    const f = files.find((x) => x.name === name);
    if (!f) throw new Error(`docs: the example scenario ${name} is missing from ${opts.scenariosDir}`);
    return f;
  };
  const whole = (name: string): string => [`[${name}](${link}/${name}):`, '', fence('yaml', file(name).text)].join('\n');
  const toc = [
    ['A first example', 'a-first-example'],
    ['Top-level keys', 'top-level-keys'],
    ['Steps', 'steps'],
    ['Step kinds', 'step-kinds'],
    ['Expectations and matchers', 'expectations-and-matchers'],
    ['Placeholders', 'placeholders'],
    ['Amounts', 'amounts'],
    ['Names, assets and backends', 'names-assets-and-backends'],
    ['Limits', 'limits'],
    ['More examples', 'more-examples'],
    ['When a step fails', 'when-a-step-fails'],
  ];
  const doc = [
    '<!-- Generated by `npm run docs` (scripts/write-docs.ts, harness/scenario/docs.ts) from the schema in',
    '     harness/scenario/schema.ts and the example scenarios. Do not edit: change those and run `npm run docs`. -->',
    '',
    '# The scenario language',
    '',
    INTRO.replaceAll('SCENARIOS', link),
    '',
    'Contents:',
    '',
    ...toc.map(([t, a]) => `- [${t}](#${a})`),
    '',
    '## A first example',
    '',
    whole('token-create-and-list.yaml'),
    '',
    FIRST_EXAMPLE_NOTE,
    '',
    topLevelSection(schema),
    '',
    stepsSection(schema, files, link),
    matcherSection(schema),
    '',
    placeholderSection(),
    '',
    amountSection(),
    '',
    namesSection(schema),
    '',
    limitsMarkdown(),
    '',
    '## More examples',
    '',
    'A transfer between two wallets, followed through the transfer groups with `wait`, `save` and placeholders:',
    '',
    whole('transfer-groups.yaml'),
    '',
    'A token whose metadata is served by the run itself:',
    '',
    whole('token-rich-metadata.yaml'),
    '',
    OUTRO.replaceAll('SCENARIOS', link),
    '',
  ].join('\n');
  return collapseBlankLines(doc);
}

/** At most one blank line in a row, outside fenced blocks (quoted files stay exactly as written). */
function collapseBlankLines(doc: string): string {
  const out: string[] = [];
  let inFence = false;
  for (const line of doc.split('\n')) {
    if (line.startsWith('```')) inFence = !inFence;
    if (!inFence && line === '' && out.at(-1) === '') continue;
    out.push(line);
  }
  return `${out.join('\n').replace(/\n+$/, '')}\n`;
}

/** Write the reference to `path` (creating folders). */
export function writeScenarioDocs(path: string, opts: DocsOptions): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, scenarioLanguageMarkdown(opts));
}
