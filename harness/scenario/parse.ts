// Scenario files: YAML text → the Scenario of model.ts, or a ScenarioError listing every
// problem with its file, line and column.
import { isPlainObject } from '../common/plain-object.js';
import { isScalar, LineCounter, parseDocument, visit, type Document } from 'yaml';
import { FileRefused, readBounded } from './files.js';
import { formatBytes, MAX_PROBLEMS_COLLECTED, MAX_SCENARIO_BYTES } from './bounds.js';
import { formatPath, type PathSegment } from '../common/path.js';
import { validateDocument, type ValidatedDocument } from './schema.js';
import type { StepKind } from './steps/kind.js';
import { STEP_KINDS } from './steps/registry.js';
import { Locator } from '../common/locator.js';
import type { Action, HeldToken, Requirements, Scenario, Step, WalletDecl } from './model.js';
import { ScenarioError, type Expectations, type ExpectedError, type ScenarioProblem, type SourcePos } from './types.js';

type Obj = Record<string, unknown>;

const has = (o: Obj, k: string): boolean => Object.prototype.hasOwnProperty.call(o, k);

/** YAML integers are read as bigints (exact); the ones that fit a number exactly become numbers. */
function normalizeNumbers(v: unknown, path: PathSegment[] = [], protoKeys: PathSegment[][] = []): unknown {
  if (typeof v === 'bigint')
    return v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v;
  if (Array.isArray(v)) return v.map((x, i) => normalizeNumbers(x, [...path, i], protoKeys));
  if (isPlainObject(v)) {
    const out: Obj = {};
    for (const [k, x] of Object.entries(v)) {
      // `__proto__` is no key of a JavaScript object (assigning it changes the object's prototype): refused below.
      if (k === '__proto__') protoKeys.push([...path, k]);
      else out[k] = normalizeNumbers(x, [...path, k], protoKeys);
    }
    return out;
  }
  return v;
}

/** A `__proto__` key, which a JavaScript object would drop without a word. */
function protoProblem(path: PathSegment[], loc: Locator): ScenarioProblem {
  const inSave = path.at(-2) === 'save';
  return {
    pos: loc.locate(path, 'key'),
    path: formatPath(path),
    message: `"__proto__" cannot be a key: JavaScript drops it from an object, so it would be lost without a word${inSave ? '; save under another name' : ''}`,
    expected: inSave ? 'a name other than __proto__' : 'another key',
  };
}

// ---- the model ----

function buildStep(raw: Obj, index: number, loc: Locator): Step {
  const kind = STEP_KINDS.find((k) => has(raw, k.key))! as StepKind<string, Action>;
  const action = kind.build(raw[kind.key], (path) => loc.locate(['steps', index, kind.key, ...path], 'value'));
  const pos = loc.locate(['steps', index], 'value');
  const waitWallet = kind.key === 'wait' && isPlainObject(raw.wait) ? raw.wait.wallet : undefined;
  const step: Step = {
    index,
    name: typeof raw.name === 'string' ? raw.name : kind.defaultName(action),
    action,
    wallet: (raw.wallet as string | undefined) ?? (waitWallet as string | undefined) ?? 'main',
    pos,
  };
  if (typeof raw.node === 'string') step.node = raw.node;
  if (raw.expect !== undefined) step.expect = raw.expect as Expectations;
  if (has(raw, 'expect_error')) step.expect_error = (raw.expect_error ?? {}) as ExpectedError;
  if (raw.save !== undefined) step.save = raw.save as Record<string, string>;
  return step;
}

/** `tokens: {ABCD: {supply: 100, name: demo}}` (validated) as HeldToken records. */
function heldTokensOf(v: Obj): HeldToken[] {
  return Object.entries(v).map(([ticker, d]) => {
    const t = d as { supply: number; name?: string };
    return { ticker, supply: t.supply, ...(t.name !== undefined ? { name: t.name } : {}) };
  });
}

function build(v: ValidatedDocument, file: string, loc: Locator): Scenario {
  const requires: Requirements = {};
  if (isPlainObject(v.requires)) {
    if (typeof v.requires.height === 'number') requires.height = v.requires.height;
    if (isPlainObject(v.requires.unlocked)) requires.unlocked = v.requires.unlocked as Record<string, bigint>;
    if (isPlainObject(v.requires.tokens)) requires.tokens = heldTokensOf(v.requires.tokens);
  }
  const wallets: WalletDecl[] = Object.entries(isPlainObject(v.wallets) ? v.wallets : {}).map(([name, decl]) => {
    const w: WalletDecl = { name };
    if (isPlainObject(decl) && isPlainObject(decl.unlocked)) w.unlocked = decl.unlocked as Record<string, bigint>;
    if (isPlainObject(decl) && isPlainObject(decl.tokens)) w.tokens = heldTokensOf(decl.tokens);
    if (isPlainObject(decl) && typeof decl.node === 'string') w.node = decl.node;
    return w;
  });
  const s: Scenario = {
    file,
    name: v.name as string,
    tags: (v.tags as string[] | undefined) ?? [],
    requires,
    nodes: typeof v.nodes === 'number' ? v.nodes : 1,
    wallets,
    steps: (v.steps as Obj[]).map((st, i) => buildStep(st, i, loc)),
  };
  if (typeof v.description === 'string') s.description = v.description;
  if (Array.isArray(v.backends)) s.backends = v.backends as Scenario['backends'];
  if (isPlainObject(v.artifacts) && v.artifacts.keep_secrets === true) s.keepSecrets = true;
  return s;
}

// ---- entry points ----

/** YAML parser messages that mean a line is indented wrong. */
const INDENTATION =
  /Sequence item without - indicator|All sequence items must start at the same column|Implicit keys need to be on a single line|Nested mappings are not allowed in compact mappings|bad indentation|Implicit map keys need to be followed by map values|A block sequence may not be used as an implicit map key|All mapping items must start at the same column/i;
const INDENTATION_RULES =
  'the items of one list start at the same column with "- ", the keys of one step line up, and what belongs to a key is indented more than the key';

function yamlMessage(code: string, message: string): string {
  if (code === 'MULTIPLE_DOCS')
    return 'a scenario file holds one YAML document (remove the "---" separator and what follows, or split the file)';
  if (/Maximum call stack size exceeded/.test(message))
    return 'nested too deeply (lists and mappings inside one another, hundreds of levels down)';
  const text = message.replace(/\s+/g, ' ').trim();
  if (/Unexpected flow-(seq|map)-start at node end/.test(text)) {
    return `${text}: inside { … } or [ … ], quote values that contain [ ] { } or commas, e.g. { tx: "result.tx_hash_list[0]" }`;
  }
  if (INDENTATION.test(text)) return `${text} (check the indentation: ${INDENTATION_RULES})`;
  return text;
}

const byPosition = (a: { pos: SourcePos }, b: { pos: SourcePos }): number =>
  a.pos.line - b.pos.line || a.pos.col - b.pos.col;

/** YAML problems that leave the structure intact enough to validate the rest. */
const SOFT_YAML_ERRORS = new Set(['DUPLICATE_KEY']);

/**
 * A key written twice in one mapping, as the YAML parser's uniqueKeys check words it (scalar keys, compared by value).
 */
function duplicateKeys(doc: Document.Parsed): { code: string; message: string; pos: [number] }[] {
  const out: { code: string; message: string; pos: [number] }[] = [];
  visit(doc, {
    Map(_, map) {
      const seen = new Set<unknown>();
      for (const pair of map.items) {
        if (!isScalar(pair.key)) continue;
        if (seen.has(pair.key.value))
          out.push({ code: 'DUPLICATE_KEY', message: 'Map keys must be unique', pos: [pair.key.range?.[0] ?? 0] });
        seen.add(pair.key.value);
      }
    },
  });
  return out;
}

/** A message of at most 1000 characters (one naming thousands of things is cut). */
const clip = (s: string): string => (s.length > 1000 ? `${s.slice(0, 1000)}…` : s);

/** `fn()`, with a stack overflow (a document nested hundreds of levels deep) as a ScenarioError. */
function deepSafe<T>(file: string, fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    if (!(e instanceof RangeError)) throw e;
    throw new ScenarioError([
      {
        pos: { file, line: 1, col: 1 },
        path: '(yaml)',
        message: `YAML: ${yamlMessage('', e.message)}`,
        expected: 'valid YAML',
      },
    ]);
  }
}

/** A scenario too large to read: refused before the YAML parser sees it. */
function tooLarge(file: string, why: string): ScenarioError {
  const message = `${why}; a scenario file is at most ${formatBytes(MAX_SCENARIO_BYTES)}, so that reading one stays quick`;
  return new ScenarioError([
    {
      pos: { file, line: 1, col: 1 },
      path: '(file)',
      message,
      expected: `a scenario file of at most ${formatBytes(MAX_SCENARIO_BYTES).split(' (')[0]}`,
    },
  ]);
}

/**
 * Parse and validate a scenario file. Throws a ScenarioError listing every problem (YAML syntax,
 * unknown keys, wrong types, bad amounts, bad matchers, unknown references, limits…) with line and
 * column — the first MAX_PROBLEMS_COLLECTED of them. Text over MAX_SCENARIO_BYTES is refused unparsed.
 */
export function parseScenario(text: string, file: string): Scenario {
  if (text.length > MAX_SCENARIO_BYTES || Buffer.byteLength(text, 'utf8') > MAX_SCENARIO_BYTES)
    throw tooLarge(file, `the scenario is ${Buffer.byteLength(text, 'utf8')} bytes`);
  const lines = new LineCounter();
  // uniqueKeys: false, then duplicateKeys(): the parser's own check compares each key with every other (minutes for a
  // big mapping).
  const doc = deepSafe(file, () =>
    parseDocument(text, { lineCounter: lines, intAsBigInt: true, prettyErrors: false, merge: true, uniqueKeys: false }),
  );
  const loc = new Locator(doc, lines, file);
  const errors = [...doc.errors, ...deepSafe(file, () => duplicateKeys(doc))];
  // One syntax error per line: the parser's follow-up errors on the same line add nothing.
  const seenLines = new Set<number>();
  const yamlProblems = errors.slice(0, MAX_PROBLEMS_COLLECTED).flatMap((e) => {
    const pos = loc.pos(e.pos[0]);
    if (seenLines.has(pos.line)) return [];
    seenLines.add(pos.line);
    return [
      {
        pos,
        path: '(yaml)',
        message: `YAML: ${yamlMessage(e.code, e.message)}`,
        expected: e.code === 'DUPLICATE_KEY' ? 'each key once per mapping' : 'valid YAML',
      },
    ];
  });
  yamlProblems.sort(byPosition);
  const yamlTruncated = errors.length > MAX_PROBLEMS_COLLECTED;
  if (yamlProblems.length && errors.some((e) => !SOFT_YAML_ERRORS.has(e.code)))
    throw new ScenarioError(yamlProblems, yamlTruncated);
  let data: unknown;
  const protoKeys: PathSegment[][] = [];
  try {
    data = normalizeNumbers(doc.toJS({ maxAliasCount: 1000 }), [], protoKeys);
  } catch (e) {
    throw new ScenarioError([
      ...yamlProblems,
      {
        pos: loc.pos(0),
        path: '(yaml)',
        message: `YAML: ${yamlMessage('', (e as Error).message)}`,
        expected: 'valid YAML',
      },
    ]);
  }
  const { value, problems, truncated } = deepSafe(file, () => validateDocument(data));
  const all = [
    ...yamlProblems,
    ...protoKeys.slice(0, MAX_PROBLEMS_COLLECTED).map((p) => protoProblem(p, loc)),
    ...problems.map((p) => ({
      pos: loc.locate(p.path, p.at),
      path: formatPath(p.path) || '(file)',
      message: clip(p.message),
      ...(p.expected ? { expected: clip(p.expected) } : {}),
    })),
  ];
  if (all.length || !value) {
    all.sort(byPosition);
    throw new ScenarioError(all, truncated === true || yamlTruncated);
  }
  return build(value, file, loc);
}

/**
 * Read (at most MAX_SCENARIO_BYTES: /dev/zero or a FIFO is refused, not read) and parse a scenario
 * file. Throws a ScenarioError. (The runner also checks the files its metadata steps serve: files.ts.)
 */
/** Read and parse the scenario file `path`; positions and relative paths name `name` (default: the file itself). */
export function loadScenarioSync(path: string, name = path): Scenario {
  let bytes: Buffer;
  try {
    bytes = readBounded(path, MAX_SCENARIO_BYTES, 'a scenario file');
  } catch (e) {
    if (!(e instanceof FileRefused)) throw e;
    throw new ScenarioError([
      {
        pos: { file: name, line: 1, col: 1 },
        path: '(file)',
        message: `cannot read the scenario file: ${e.message}`,
        expected: 'a readable YAML file',
      },
    ]);
  }
  const s = parseScenario(bytes.toString('utf8'), name);
  return name === path ? s : { ...s, readFrom: path };
}

/** loadScenarioSync as a promise (the file is at most MAX_SCENARIO_BYTES: reading it at once is quick). */
export async function loadScenario(path: string, name = path): Promise<Scenario> {
  return loadScenarioSync(path, name);
}
