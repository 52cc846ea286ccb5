// Which wallet RPC exchanges carry a wallet's secrets (salvium src/wallet/wallet_rpc_server.cpp):
// answers that reveal a seed, a spend or view secret key or a multisig key-exchange message, and
// requests that send a password, a seed or keys. A scenario run redacts these values from its
// artifacts and reports unless the scenario keeps them (`artifacts: { keep_secrets: true }`).
// Not secret here: transaction keys (`get_tx_key`, `tx_key` of a transfer prove one payment and
// spend nothing), proofs and signatures, key images and exported outputs.
import { isPlainObject } from '../common/plain-object.js';

/** Wallet RPC method → the fields of its `result` that hold a secret. */
export const SECRET_ANSWERS: Readonly<Record<string, readonly string[]>> = {
  // key_type mnemonic, spend_key or view_key: each a secret of the wallet
  query_key: ['key'],
  restore_deterministic_wallet: ['seed'],
  // a key-exchange message holds the sender's private view key share
  prepare_multisig: ['multisig_info'],
  make_multisig: ['multisig_info'],
  exchange_multisig_keys: ['multisig_info'],
  get_multisig_key_exchange_booster: ['multisig_info'],
};

/** Request fields (of any wallet method) that hold a secret. */
export const SECRET_PARAMS =
  /^(password|old_password|new_password|wallet_password|background_cache_password|seed|seed_offset|spendkey|viewkey|multisig_info)$/;

export interface RevealedSecret {
  value: string;
  /** What it is, for the label it is replaced by: `query_key key`. */
  what: string;
}

/** The non-empty strings of a value that may be a string or a list of them. */
const stringsOf = (v: unknown): string[] =>
  typeof v === 'string'
    ? v
      ? [v]
      : []
    : Array.isArray(v)
      ? v.filter((x): x is string => typeof x === 'string' && !!x)
      : [];

/** The secrets a JSON-RPC exchange with a wallet holds: its request's secret params, its answer's secret fields. */
export function secretsOf(request: unknown, response: unknown): RevealedSecret[] {
  if (!isPlainObject(request) || typeof request.method !== 'string') return [];
  const method = request.method;
  const out: RevealedSecret[] = [];
  if (isPlainObject(request.params))
    for (const [k, v] of Object.entries(request.params))
      if (SECRET_PARAMS.test(k)) for (const value of stringsOf(v)) out.push({ value, what: `${method} ${k}` });
  const result = isPlainObject(response) ? response.result : undefined;
  if (isPlainObject(result))
    for (const field of SECRET_ANSWERS[method] ?? [])
      for (const value of stringsOf(result[field])) out.push({ value, what: `${method} ${field}` });
  return out;
}
