// Shrinking a divergent program to the smallest scenario file that still diverges the same way: delta debugging
// (Zeller's ddmin) over its steps, each candidate made valid again (prune: a step whose saved value is gone goes
// too), then cheap value simplifications (wallets no step names, the token no step uses, edge text made plain).
// A candidate "still diverges" when the test says so (fuzz.ts: a divergence of the same step kind and path).
import { EDGE_TEXT_PLAIN, isEdgeText } from './forms.js';
import { prune, walletsUsed, type FuzzProgram } from './program.js';

export interface ShrinkOptions {
  /** Whether the candidate still shows the divergence. */
  test(p: FuzzProgram): Promise<boolean>;
  /** The most candidates to run (each is a run on both sides). */
  budget: number;
  /** A line per candidate kept. */
  log?: (line: string) => void;
}

export interface Shrunk {
  program: FuzzProgram;
  /** Candidates run. */
  runs: number;
}

/** Split `n` indices into `parts` contiguous chunks. */
function chunks(n: number, parts: number): number[][] {
  const out: number[][] = [];
  for (let i = 0; i < parts; i++) {
    const [from, to] = [Math.floor((i * n) / parts), Math.floor(((i + 1) * n) / parts)];
    if (to > from) out.push(Array.from({ length: to - from }, (_, k) => from + k));
  }
  return out;
}

export async function shrink(start: FuzzProgram, o: ShrinkOptions): Promise<Shrunk> {
  let best = start;
  let runs = 0;
  const tried = new Set<string>();
  const attempt = async (p: FuzzProgram): Promise<boolean> => {
    const key = JSON.stringify([p.steps, p.wallets, p.requires]);
    if (!p.steps.length || tried.has(key) || runs >= o.budget) return false;
    tried.add(key);
    runs++;
    if (!(await o.test(p))) return false;
    best = p;
    o.log?.(`  kept ${p.steps.length} step${p.steps.length === 1 ? '' : 's'}`);
    return true;
  };

  // ddmin over the steps: remove a chunk (try each), finer when none can go.
  let parts = 2;
  while (best.steps.length >= 2 && runs < o.budget) {
    const n = best.steps.length;
    let removed = false;
    for (const chunk of chunks(n, Math.min(parts, n))) {
      const gone = new Set(chunk);
      const steps = prune(best.steps.filter((_, i) => !gone.has(i)));
      if (await attempt({ ...best, steps })) {
        removed = true;
        break;
      }
    }
    if (removed) parts = Math.max(parts - 1, 2);
    else if (parts >= n) break;
    else parts = Math.min(parts * 2, n);
  }

  // Cheap simplifications of what is left.
  const used = walletsUsed(best.steps);
  const unused = Object.keys(best.wallets).filter((w) => !used.has(w));
  if (unused.length)
    await attempt({ ...best, wallets: Object.fromEntries(Object.entries(best.wallets).filter(([w]) => used.has(w))) });
  if (best.requires.tokens && !JSON.stringify(best.steps).includes(Object.keys(best.requires.tokens)[0]!)) {
    const { tokens: _t, ...requires } = best.requires;
    await attempt({ ...best, requires });
  }
  for (let i = 0; i < best.steps.length && runs < o.budget; i++) {
    const plain = plainText(best.steps[i]);
    if (JSON.stringify(plain) === JSON.stringify(best.steps[i])) continue;
    await attempt({ ...best, steps: best.steps.map((s, j) => (j === i ? (plain as typeof s) : s)) });
  }
  return { program: best, runs };
}

/** The value with every edge text (non-ASCII, markup, long…) replaced by plain text. */
function plainText(v: unknown): unknown {
  if (typeof v === 'string') return isEdgeText(v) ? EDGE_TEXT_PLAIN : v;
  if (Array.isArray(v)) return v.map(plainText);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plainText(x)]));
  return v;
}
