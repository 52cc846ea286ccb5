import { formatPath, type PathSegment } from '../common/path.js';
import { isPlainObject } from '../common/plain-object.js';
import { classify, nearestKey } from '../diff/rules.js';
import { addressAt } from '../testnet/mining/mining.js';
import type { BackendSpec } from '../coin/backends.js';
import type { RecordedWallet } from './types.js';

interface Produced {
  /** The step that produced it, and the path of the value in its answer. */
  step: number;
  path: string;
  /** The saved name, once something uses it. */
  name?: string;
  base: string;
}

export interface Linker {
  /** The placeholder for `value`, if it has one (a use of a produced value saves it). */
  link(value: string): string | undefined;
  /** `v` with every string linked or escaped (requests, and values written as they are). */
  request(v: unknown): unknown;
  /** Remember what the answer of step `step` (a call of `method`) holds, after its own expectations were made. */
  produced(step: number, result: unknown, method?: string): void;
  /** The saves of each step: step index → name → path. */
  saves(): Map<number, Record<string, string>>;
}

/**
 * Request and answer fields that hold a secret: never written; a request sends `${env.SALTNET_RECORDED_<KEY>}` instead.
 */
export const SECRET_KEY =
  /^(password|old_password|new_password|passphrase|seed|seed_offset|mnemonic|key|spendkey|viewkey|spend_key|view_key|secret_key|private_key|spend_secret_key|view_secret_key)$/;

/** A literal string as a scenario writes it: `${` is `$${` (placeholders are resolved in every string of a step). */
export const escapeText = (s: string): string => s.replace(/\$\{/g, () => '$${');

/** Shorter values (a 16-digit payment id of zeros, say) are not tied together: they repeat by chance. */
const MIN_PRODUCED = 32;

/** The placeholders of the wallets' addresses: the one `${w.address}` gives at this height, and `.cn`/`.carrot`. */
function addressPlaceholders(
  spec: BackendSpec,
  wallets: readonly RecordedWallet[],
  height: number,
): Map<string, string> {
  const m = new Map<string, string>();
  for (const w of wallets) {
    const a = w.addresses;
    m.set(a.cn, `\${${w.name}.cn}`);
    if (a.carrot) m.set(a.carrot, `\${${w.name}.carrot}`);
    m.set(addressAt(spec, a, height), `\${${w.name}.address}`);
  }
  return m;
}

/** A name for a saved value from the key it came from: `tx_hash`, then `tx_hash_2`, … */
function nameFor(base: string, used: Set<string>): string {
  const clean = base.replace(/[^A-Za-z0-9_]/g, '_').replace(/^(?![A-Za-z_])/, 'v_') || 'value';
  let name = clean;
  for (let i = 2; used.has(name); i++) name = `${clean}_${i}`;
  used.add(name);
  return name;
}

export function createLinker(spec: BackendSpec, wallets: readonly RecordedWallet[], height: number): Linker {
  const addresses = addressPlaceholders(spec, wallets, height);
  const produced = new Map<string, Produced>();
  const used = new Set<string>(['height', 'wallets', 'metadata', 'env', ...wallets.map((w) => w.name)]);
  const link = (value: string): string | undefined => {
    const a = addresses.get(value);
    if (a) return a;
    const p = produced.get(value);
    if (!p) return undefined;
    p.name ??= nameFor(p.base, used);
    return `\${${p.name}}`;
  };
  const request = (v: unknown): unknown => {
    if (typeof v === 'string') return link(v) ?? escapeText(v);
    if (Array.isArray(v)) return v.map(request);
    if (isPlainObject(v))
      return Object.fromEntries(
        Object.entries(v).map(([k, x]) => [
          k,
          SECRET_KEY.test(k) && typeof x === 'string' && x !== ''
            ? `\${env.SALTNET_RECORDED_${k.toUpperCase()}}`
            : request(x),
        ]),
      );
    return v;
  };
  const remember = (step: number, path: PathSegment[], v: unknown, method: string): void => {
    if (Array.isArray(v)) return v.forEach((x, i) => remember(step, [...path, i], x, method));
    if (isPlainObject(v)) return Object.entries(v).forEach(([k, x]) => remember(step, [...path, k], x, method));
    if (typeof v !== 'string' || v.length < MIN_PRODUCED || /^(.)\1*$/.test(v) || addresses.has(v) || produced.has(v))
      return;
    const formatted = formatPath(path);
    if (classify(path, formatted, v, v)?.format !== 'opaque') return;
    const key = nearestKey(path) ?? 'value';
    // `transfer_tx_hash`, `create_token_tx_hash`: what produced it and what it is.
    produced.set(v, { step, path: formatted, base: `${method}${method ? '_' : ''}${key.replace(/_list$/, '')}` });
  };
  return {
    link,
    request,
    produced: (step, result, method) => remember(step, ['result'], result, (method ?? '').replace(/^\//, '')),
    saves() {
      const out = new Map<number, Record<string, string>>();
      for (const p of produced.values()) if (p.name) out.set(p.step, { ...out.get(p.step), [p.name]: p.path });
      return out;
    },
  };
}
