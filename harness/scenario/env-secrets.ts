// `${env.NAME}` values are secrets unless marked public: a scenario may take a password or a token
// from the environment of `saltnet run`, and its artifacts (transcript.jsonl, result.json, the log
// copies, junit and the reports) are uploaded by CI. Every value of a variable that a scenario
// names as `${env.NAME}` is replaced, wherever it appears in what the run writes or prints, by
// `<redacted env.NAME>`. `${env.public.NAME}` names a value that may appear (a URL, an amount):
// a variable named only that way is left as it is.
import { makeLabelledRedactor } from '../common/redact.js';
import { parsePath } from '../common/path.js';
import { scanTemplate } from './interpolate.js';

/** `<redacted env.NAME>`: what a secret environment value becomes in artifacts and reports. */
export const envLabel = (name: string): string => `<redacted env.${name}>`;

/** Values shorter than this are still redacted, with a warning (every occurrence of them goes). */
const SHORT = 4;

export interface EnvReference {
  name: string;
  public: boolean;
}

/** The environment variable a placeholder expression names (`env.X`, `env.public.X`), or undefined. */
export function envReference(expr: string): EnvReference | undefined {
  let segs: unknown[];
  try {
    segs = parsePath(expr);
  } catch {
    return undefined;
  }
  if (segs[0] !== 'env') return undefined;
  if (segs.length === 2 && typeof segs[1] === 'string') return { name: segs[1], public: false };
  if (segs.length === 3 && segs[1] === 'public' && typeof segs[2] === 'string') return { name: segs[2], public: true };
  return undefined;
}

/** Every `${env…}` placeholder in a value (strings, object keys, arrays, nested objects), in order. */
export function envReferences(value: unknown): EnvReference[] {
  const out: EnvReference[] = [];
  const seen = new Set<object>();
  const text = (s: string): void => {
    if (!s.includes('${')) return;
    let parts: ReturnType<typeof scanTemplate>;
    try {
      parts = scanTemplate(s);
    } catch {
      return; // an unterminated placeholder: the scenario's checks report it
    }
    for (const p of parts) {
      const ref = 'expr' in p ? envReference(p.expr) : undefined;
      if (ref) out.push(ref);
    }
  };
  const walk = (v: unknown): void => {
    if (typeof v === 'string') return text(v);
    if (typeof v !== 'object' || v === null || seen.has(v)) return;
    seen.add(v);
    if (Array.isArray(v)) return v.forEach(walk);
    for (const [k, x] of Object.entries(v)) {
      text(k);
      walk(x);
    }
  };
  walk(value);
  return out;
}

export interface EnvRedaction {
  /** The values redacted (empty: nothing to do). */
  secrets: string[];
  /** `text` with each secret value replaced by `<redacted env.NAME>`. */
  redact: (text: string) => string;
  /** A copy of `value` with every string (and object key) redacted; bigints, numbers and the rest kept. */
  redactValue: <T>(value: T) => T;
  /** Warnings: secret values so short that redacting them changes unrelated text. */
  warnings: string[];
}

/** The redaction for a scenario: the values, in `env`, of the variables it names without `public`. */
export function envRedaction(scenario: unknown, env: NodeJS.ProcessEnv = process.env): EnvRedaction {
  const refs = envReferences(scenario);
  const names = [...new Set(refs.filter((r) => !r.public).map((r) => r.name))];
  const labels = new Map<string, string>();
  const warnings: string[] = [];
  for (const name of names) {
    const v = env[name];
    if (v === undefined || v === '' || labels.has(v)) continue;
    labels.set(v, envLabel(name));
    if (v.length < SHORT)
      warnings.push(
        `\${env.${name}} is ${v.length} character${v.length === 1 ? '' : 's'} long: every occurrence of it in the artifacts and reports is redacted; write \${env.public.${name}} if it is no secret`,
      );
  }
  // Each label stands for itself: redacting twice (a result redacted here, then by the artifacts) changes nothing.
  const table = new Map(labels);
  for (const label of labels.values()) table.set(label, label);
  const redact = makeLabelledRedactor(table);
  return { secrets: [...labels.keys()], redact, redactValue: (value) => mapStrings(value, redact), warnings };
}

function mapStrings<T>(value: T, f: (s: string) => string): T {
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return f(v);
    if (Array.isArray(v)) return v.map(walk);
    if (typeof v !== 'object' || v === null) return v;
    const proto = Object.getPrototypeOf(v) as unknown;
    if (proto !== Object.prototype && proto !== null) return v;
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[f(k)] = walk(x);
    return out;
  };
  return walk(value) as T;
}
