// Scenario files: YAML text → the Scenario model of types.ts, or a ScenarioError listing every
// problem with its file, line and column.
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { isAlias, isMap, isPair, isScalar, isSeq, LineCounter, parseDocument, type Document, type Node as YamlNode } from 'yaml';
import { formatPath, type PathSegment } from './path.js';
import { ACTION_KEYS, WALLET_METHODS, validateDocument, type ActionKey, type SchemaProblem, type ValidatedDocument } from './schema.js';
import { ScenarioError, type Action, type Expectations, type ExpectedError, type Requirements, type Scenario, type SourcePos, type Step, type WalletDecl, type WalletMethod } from './types.js';

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const has = (o: Obj, k: string): boolean => Object.prototype.hasOwnProperty.call(o, k);

/** YAML integers are read as bigints (exact); the ones that fit a number exactly become numbers. */
function normalizeNumbers(v: unknown): unknown {
  if (typeof v === 'bigint') return v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v;
  if (Array.isArray(v)) return v.map(normalizeNumbers);
  if (isObj(v) && !(v instanceof Uint8Array)) {
    const out: Obj = {};
    for (const [k, x] of Object.entries(v)) out[k] = normalizeNumbers(x);
    return out;
  }
  return v;
}

// ---- positions ----

/** Paths into a parsed YAML (or JSON) document → file, line and column (also used by config/load.ts). */
export class Locator {
  constructor(
    private readonly doc: Document.Parsed,
    private readonly lines: LineCounter,
    private readonly file: string,
  ) {}

  pos(offset: number | undefined): SourcePos {
    if (offset === undefined) return { file: this.file, line: 1, col: 1 };
    const { line, col } = this.lines.linePos(offset);
    return { file: this.file, line, col };
  }

  private deref(n: unknown): unknown {
    return isAlias(n) ? n.resolve(this.doc) : n;
  }

  /** The node at `path` (or the deepest one that exists) and, when it is a map value, its key. */
  private walk(path: readonly PathSegment[]): { node: unknown; key?: unknown; complete: boolean } {
    let node: unknown = this.doc.contents;
    let key: unknown;
    for (const seg of path) {
      const cur = this.deref(node);
      if (isMap(cur)) {
        const pair = cur.items.find((p) => isPair(p) && keyText(p.key) === String(seg));
        if (!pair) return { node: cur, key, complete: false };
        key = pair.key;
        node = pair.value ?? pair.key;
      } else if (isSeq(cur) && typeof seg === 'number' && seg < cur.items.length) {
        key = undefined;
        node = cur.items[seg];
      } else {
        return { node: cur, key, complete: false };
      }
    }
    return { node, key, complete: true };
  }

  private start(n: unknown): number | undefined {
    const r = (n as YamlNode | undefined)?.range;
    return r ? r[0] : undefined;
  }

  locate(path: readonly PathSegment[], at: SchemaProblem['at']): SourcePos {
    if (at === 'parent') return this.pos(this.start(this.walk(path.slice(0, -1)).node));
    const w = this.walk(path);
    if (at === 'key' && w.complete && w.key) return this.pos(this.start(w.key));
    return this.pos(this.start(w.node) ?? this.start(w.key));
  }
}

function keyText(k: unknown): string | undefined {
  if (isScalar(k)) return String(k.value);
  return k === null || k === undefined ? undefined : String(k);
}

// ---- the model ----

function defaultStepName(a: Action): string {
  switch (a.kind) {
    case 'call':
      return a.path ? `call ${a.path}` : `call ${a.method ?? ''}${a.on === 'daemon' ? ' (daemon)' : ''}`;
    case 'wallet':
      return a.method;
    case 'mine':
      return a.to !== undefined ? `mine to ${a.to}` : `mine ${a.blocks ?? 1}`;
    case 'wait':
      return `wait ${a.call.kind === 'wallet' ? a.call.method : (a.call.method ?? a.call.path ?? '')}`;
    case 'metadata':
      return `metadata ${a.name}`;
    case 'restart':
      return `restart ${a.target}`;
    case 'snapshot':
      return `snapshot ${a.name}`;
    case 'revert':
      return `revert ${a.name}`;
  }
}

function buildCall(v: Obj): Extract<Action, { kind: 'call' }> {
  const a: Extract<Action, { kind: 'call' }> = { kind: 'call', on: (v.on as 'wallet' | 'daemon' | undefined) ?? (v.path !== undefined ? 'daemon' : 'wallet'), params: v.params ?? {} };
  if (typeof v.method === 'string') a.method = v.method;
  if (typeof v.path === 'string') a.path = v.path;
  return a;
}

function buildAction(key: ActionKey, v: unknown): Action {
  if ((WALLET_METHODS as readonly string[]).includes(key)) return { kind: 'wallet', method: key as WalletMethod, params: v ?? {} };
  switch (key) {
    case 'call':
      return buildCall(v as Obj);
    case 'mine': {
      if (typeof v === 'number') return { kind: 'mine', blocks: v };
      const o = v as Obj;
      return typeof o.to === 'number' ? { kind: 'mine', to: o.to } : { kind: 'mine', blocks: o.blocks as number };
    }
    case 'wait': {
      const o = v as Obj;
      const inner = (['call', ...WALLET_METHODS] as const).find((k) => has(o, k))!;
      const a: Extract<Action, { kind: 'wait' }> = {
        kind: 'wait',
        call: buildAction(inner, o[inner]) as Extract<Action, { kind: 'call' | 'wallet' }>,
        until: o.until as Expectations,
        mine: o.mine === true,
      };
      if (typeof o.seconds === 'number') a.seconds = o.seconds;
      if (typeof o.blocks === 'number') a.blocks = o.blocks;
      return a;
    }
    case 'metadata': {
      const o = v as Obj;
      const a: Extract<Action, { kind: 'metadata' }> = { kind: 'metadata', name: o.name as string };
      if (o.fields !== undefined) a.fields = o.fields as Obj;
      if (o.file !== undefined) a.file = o.file as string;
      return a;
    }
    case 'restart':
      return { kind: 'restart', target: v as 'daemon' | 'wallet' };
    case 'snapshot':
    case 'revert':
      return { kind: key, name: v as string };
    default:
      throw new Error(`unhandled action ${key}`);
  }
}

function buildStep(raw: Obj, index: number, pos: SourcePos): Step {
  const key = ACTION_KEYS.find((k) => has(raw, k))!;
  const action = buildAction(key, raw[key]);
  const waitWallet = key === 'wait' && isObj(raw.wait) ? raw.wait.wallet : undefined;
  const step: Step = {
    index,
    name: typeof raw.name === 'string' ? raw.name : defaultStepName(action),
    action,
    wallet: (raw.wallet as string | undefined) ?? (waitWallet as string | undefined) ?? 'main',
    pos,
  };
  if (raw.expect !== undefined) step.expect = raw.expect as Expectations;
  if (has(raw, 'expect_error')) step.expect_error = (raw.expect_error ?? {}) as ExpectedError;
  if (raw.save !== undefined) step.save = raw.save as Record<string, string>;
  return step;
}

function build(v: ValidatedDocument, file: string, stepPos: (i: number) => SourcePos): Scenario {
  const requires: Requirements = {};
  if (isObj(v.requires)) {
    if (typeof v.requires.height === 'number') requires.height = v.requires.height;
    if (isObj(v.requires.unlocked)) requires.unlocked = v.requires.unlocked as Record<string, bigint>;
  }
  const wallets: WalletDecl[] = Object.entries(isObj(v.wallets) ? v.wallets : {}).map(([name, decl]) => {
    const w: WalletDecl = { name };
    if (isObj(decl) && isObj(decl.unlocked)) w.unlocked = decl.unlocked as Record<string, bigint>;
    return w;
  });
  const s: Scenario = {
    file,
    name: v.name as string,
    tags: (v.tags as string[] | undefined) ?? [],
    requires,
    wallets,
    steps: (v.steps as Obj[]).map((st, i) => buildStep(st, i, stepPos(i))),
  };
  if (typeof v.description === 'string') s.description = v.description;
  if (Array.isArray(v.backends)) s.backends = v.backends as Scenario['backends'];
  return s;
}

// ---- entry points ----

function yamlMessage(code: string, message: string): string {
  if (code === 'MULTIPLE_DOCS') return 'a scenario file holds one YAML document (remove the "---" separator and what follows, or split the file)';
  const text = message.replace(/\s+/g, ' ').trim();
  if (/Unexpected flow-(seq|map)-start at node end/.test(text)) {
    return `${text}: inside { … } or [ … ], quote values that contain [ ] { } or commas, e.g. { tx: "result.tx_hash_list[0]" }`;
  }
  return text;
}

const byPosition = (a: { pos: SourcePos }, b: { pos: SourcePos }): number => a.pos.line - b.pos.line || a.pos.col - b.pos.col;

/** YAML problems that leave the structure intact enough to validate the rest. */
const SOFT_YAML_ERRORS = new Set(['DUPLICATE_KEY']);

/**
 * Parse and validate a scenario file. Throws a ScenarioError listing every problem (YAML syntax,
 * unknown keys, wrong types, bad amounts, bad matchers, unknown references…) with line and column.
 */
export function parseScenario(text: string, file: string): Scenario {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, intAsBigInt: true, prettyErrors: false, merge: true, uniqueKeys: true });
  const loc = new Locator(doc, lines, file);
  // One syntax error per line: the parser's follow-up errors on the same line add nothing.
  const seenLines = new Set<number>();
  const yamlProblems = doc.errors.flatMap((e) => {
    const pos = loc.pos(e.pos[0]);
    if (seenLines.has(pos.line)) return [];
    seenLines.add(pos.line);
    return [{ pos, path: '(yaml)', message: `YAML: ${yamlMessage(e.code, e.message)}`, expected: e.code === 'DUPLICATE_KEY' ? 'each key once per mapping' : 'valid YAML' }];
  });
  yamlProblems.sort(byPosition);
  if (yamlProblems.length && doc.errors.some((e) => !SOFT_YAML_ERRORS.has(e.code))) throw new ScenarioError(yamlProblems);
  let data: unknown;
  try {
    data = normalizeNumbers(doc.toJS({ maxAliasCount: 1000 }));
  } catch (e) {
    throw new ScenarioError([...yamlProblems, { pos: loc.pos(0), path: '(yaml)', message: `YAML: ${(e as Error).message}`, expected: 'valid YAML' }]);
  }
  const { value, problems } = validateDocument(data);
  const all = [
    ...yamlProblems,
    ...problems.map((p) => ({
      pos: loc.locate(p.path, p.at),
      path: formatPath(p.path) || '(file)',
      message: p.message,
      ...(p.expected ? { expected: p.expected } : {}),
    })),
  ];
  if (all.length || !value) {
    all.sort(byPosition);
    throw new ScenarioError(all);
  }
  return build(value, file, (i) => loc.locate(['steps', i], 'value'));
}

function readProblem(path: string, e: unknown): ScenarioError {
  const err = e as NodeJS.ErrnoException;
  const why = err.code === 'ENOENT' ? 'no such file' : err.code === 'EISDIR' ? 'it is a folder' : err.message;
  return new ScenarioError([{ pos: { file: path, line: 1, col: 1 }, path: '(file)', message: `cannot read the scenario file: ${why}`, expected: 'a readable YAML file' }]);
}

/** Read and parse a scenario file (see parseScenario). */
export async function loadScenario(path: string): Promise<Scenario> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    throw readProblem(path, e);
  }
  return parseScenario(text, path);
}

/** loadScenario without the promise. */
export function loadScenarioSync(path: string): Scenario {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw readProblem(path, e);
  }
  return parseScenario(text, path);
}
