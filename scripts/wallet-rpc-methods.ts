// `node dist/scripts/wallet-rpc-methods.js <salvium source folder> [--out FILE]`: the JSON-RPC method
// table of a Salvium release's wallet RPC (the MAP_JON_RPC… entries of src/wallet/wallet_rpc_server.h),
// written to fixtures/salvium-<version>/wallet-rpc-methods.json. test/sim/coverage-wallet.test.ts holds
// docs/sim-coverage.md and the simulator to that list. For a new release: run it on the release's source
// with --out fixtures/salvium-<new version>/wallet-rpc-methods.json.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = fileURLToPath(new URL('../..', import.meta.url));
const HEADER = 'src/wallet/wallet_rpc_server.h';
const DEFAULT_OUT = 'fixtures/salvium-v1.1.3c/wallet-rpc-methods.json';

export interface WalletRpcMethod {
  /** The JSON-RPC method name. */
  name: string;
  /** The C++ handler it maps to (aliases share one). */
  handler: string;
}

/** Every `MAP_JON_RPC…("name", handler, …)` entry of the header's `/json_rpc` map, in source order. */
export function extractMethods(header: string): WalletRpcMethod[] {
  const start = header.indexOf('BEGIN_JSON_RPC_MAP("/json_rpc")');
  const end = header.indexOf('END_JSON_RPC_MAP()', start);
  if (start === -1 || end === -1) throw new Error('no BEGIN_JSON_RPC_MAP("/json_rpc") … END_JSON_RPC_MAP() block');
  const entry = /MAP_JON_RPC[A-Z_]*\(\s*"([^"]+)"\s*,\s*(\w+)/g;
  return [...header.slice(start, end).matchAll(entry)].map((m) => ({ name: m[1]!, handler: m[2]! }));
}

/** The header in a source folder: the repository root, or its src/ (either is accepted). */
function headerPath(folder: string): string {
  for (const candidate of [join(folder, HEADER), join(folder, HEADER.replace(/^src\//, ''))])
    if (existsSync(candidate)) return candidate;
  throw new Error(`${folder}: no ${HEADER} (give the Salvium source folder)`);
}

function main(): void {
  const { values, positionals } = parseArgs({ options: { out: { type: 'string' } }, allowPositionals: true });
  if (positionals.length !== 1) {
    process.stderr.write('usage: wallet-rpc-methods <salvium source folder> [--out FILE]\n');
    process.exit(2);
  }
  try {
    const file = headerPath(resolve(positionals[0]!));
    const methods = extractMethods(readFileSync(file, 'utf8'));
    const out = resolve(root, values.out ?? DEFAULT_OUT);
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, `${JSON.stringify({ source: HEADER, count: methods.length, methods }, null, 2)}\n`);
    process.stderr.write(`${methods.length} methods → ${out}\n`);
  } catch (err) {
    process.stderr.write(`wallet-rpc-methods: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
