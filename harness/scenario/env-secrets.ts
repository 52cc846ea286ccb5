// `${env.NAME}` values are secrets unless marked public: a scenario may take a password or a token
// from the environment of `saltnet run`, and its artifacts (transcript.jsonl, result.json, the log
// copies, junit and the reports) are uploaded by CI. Every value of a variable that a scenario
// names as `${env.NAME}` is replaced, where it appears as a value in what the run writes or prints,
// by `<redacted env.NAME>` (redaction.ts says where that is). `${env.public.NAME}` names a value that
// may appear (a URL, an amount): a variable named only that way is left as it is.
import { parsePath } from '../common/path.js';
import { scanTemplate } from './interpolate.js';

/** `<redacted env.NAME>`: what a secret environment value becomes in artifacts and reports. */
export const envLabel = (name: string): string => `<redacted env.${name}>`;

/** Values shorter than this are still redacted (as whole words), with a warning. */
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

/** The values of the variables a scenario names without `public`, each with its label; and warnings about them. */
export function envRedactionLabels(
  scenario: unknown,
  env: NodeJS.ProcessEnv = process.env,
): { labels: Map<string, string>; warnings: string[] } {
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
        `\${env.${name}} is ${v.length} character${v.length === 1 ? '' : 's'} long, hardly a secret: it is redacted where it is a whole word of a value (in saltnet's messages, where it is a quoted value), never inside other words; write \${env.public.${name}} if it is no secret`,
      );
  }
  return { labels, warnings };
}
