// What a scenario run keeps out of everything it writes or prints (transcript.jsonl, result.json,
// the log copies, the reports, the output): the values of its `${env.NAME}` variables (env-secrets.ts)
// and the wallet secrets its exchanges carry (secret-fields.ts: a query_key answer, a seed sent to
// restore a wallet), each replaced by a label (`<redacted env.TOKEN>`, `<redacted query_key key>`).
//
// A value is replaced only where it appears as a value, never inside saltnet's own words or a JSON
// key: a long secret (16 characters or more) wherever it appears in a value, a short one only as a
// whole word; in saltnet's sentences (failure messages, default step names, paths) a short one only
// inside a quoted value; a key only when it is a long secret whole. So `FOO=x` cannot turn
// `"index"` into `"inde<redacted env.FOO>"` (and a report's `step NaN`), nor `unexpected` into
// `une<redacted env.FOO>pected`.
import { ANYWHERE_FROM, makeLabelledRedactor, makeMessageRedactor } from '../common/redact.js';
import { isPlainObject } from '../common/plain-object.js';
import { envRedactionLabels } from './env-secrets.js';
import { secretsOf } from './secret-fields.js';
import type { ScenarioResult, StepFailure, StepResult } from './types.js';

export interface Redaction {
  /** The values redacted so far: the environment's, then the wallet secrets exchanges revealed. */
  readonly secrets: readonly string[];
  /** Warnings about the environment's values (one too short to be much of a secret). */
  readonly warnings: readonly string[];
  /** A value or a program's output (a request, an answer, a log line). */
  text(s: string): string;
  /** saltnet's own sentence (a failure message, a path, a step's default name). */
  message(s: string): string;
  /** A JSON key: replaced only when it is a long secret whole. */
  key(k: string): string;
  /** A copy of a value (a request, an answer): its strings as `text`, its keys as `key`; bigints and the rest kept. */
  value<T>(v: T): T;
  /** A copy of a step's or a scenario's result, each field redacted as what it is (value, or saltnet's words). */
  result<T extends StepResult | ScenarioResult>(r: T): T;
  /** A wallet exchange seen: the secrets it carries are redacted from now on (unless the scenario keeps them). */
  observe(request: unknown, response: unknown): void;
}

export interface RedactionOptions {
  /** `artifacts: { keep_secrets: true }`: wallet secrets stay readable (the environment's values never do). */
  keepSecrets?: boolean;
  env?: NodeJS.ProcessEnv;
}

/** Each label stands for itself: redacting twice (a result, then the artifacts) changes nothing. */
function withIdentities(labels: Map<string, string>): Map<string, string> {
  const table = new Map(labels);
  for (const label of labels.values()) table.set(label, label);
  return table;
}

/** The redaction of one scenario run: its `${env.NAME}` values now, the wallet secrets as they are revealed. */
export function createRedaction(scenario: unknown, o: RedactionOptions = {}): Redaction {
  const env = envRedactionLabels(scenario, o.env ?? process.env);
  const labels = new Map(env.labels);
  let text = makeLabelledRedactor(withIdentities(labels));
  let message = makeMessageRedactor(withIdentities(labels));
  const key = (k: string): string => (k.length >= ANYWHERE_FROM ? (labels.get(k) ?? k) : k);
  const value = <T>(v: T): T => mapValue(v, text, key);
  const failure = (f: StepFailure): StepFailure => ({
    ...value(f),
    message: message(f.message),
    ...(f.expected !== undefined ? { expected: message(f.expected) } : {}),
    ...(f.path !== undefined ? { path: message(f.path) } : {}),
    ...(f.pos ? { pos: { ...f.pos, file: message(f.pos.file) } } : {}),
  });
  // Values (requests, answers, log lines) as values; names, states and paths as saltnet's words.
  const step = (s: StepResult): StepResult => ({
    ...value(s),
    name: message(s.name),
    action: message(s.action),
    status: s.status,
    ...(s.failure ? { failure: failure(s.failure) } : {}),
  });
  const scenarioResult = (s: ScenarioResult): ScenarioResult => ({
    ...value(s),
    file: message(s.file),
    name: message(s.name),
    status: s.status,
    backend: message(s.backend),
    steps: s.steps.map(step),
    ...(s.artifactDir !== undefined ? { artifactDir: message(s.artifactDir) } : {}),
    ...(s.failure ? { failure: failure(s.failure) } : {}),
  });
  return {
    get secrets() {
      return [...labels.keys()];
    },
    warnings: env.warnings,
    text: (s) => text(s),
    message: (s) => message(s),
    key,
    value,
    result: <T extends StepResult | ScenarioResult>(r: T): T =>
      ('steps' in r ? scenarioResult(r) : step(r as StepResult)) as T,
    observe(request, response) {
      if (o.keepSecrets) return;
      let added = false;
      for (const s of secretsOf(request, response)) {
        if (labels.has(s.value)) continue;
        labels.set(s.value, `<redacted ${s.what}>`);
        added = true;
      }
      if (!added) return;
      text = makeLabelledRedactor(withIdentities(labels));
      message = makeMessageRedactor(withIdentities(labels));
    },
  };
}

/** A copy of `value` with every string mapped by `str` and every key by `key`; anything but plain data kept. */
function mapValue<T>(value: T, str: (s: string) => string, key: (k: string) => string): T {
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return str(v);
    if (Array.isArray(v)) return v.map(walk);
    if (!isPlainObject(v)) return v;
    const proto = Object.getPrototypeOf(v) as unknown;
    if (proto !== Object.prototype && proto !== null) return v;
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[key(k)] = walk(x);
    return out;
  };
  return walk(value) as T;
}
