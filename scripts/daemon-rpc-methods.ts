// Maintainer script: the method table of a salviumd release, read from its core_rpc_server.h (the
// URI map and the /json_rpc map of core_rpc_server's BEGIN_URI_MAP2 block), written as
// fixtures/salvium-<version>/daemon-rpc-methods.json. docs/sim-coverage.md's daemon section is
// checked against that file (test/sim/coverage-daemon.test.ts), so the list cannot drift.
//
//   npm run build && node dist/scripts/daemon-rpc-methods.js /path/to/salvium/src/rpc/core_rpc_server.h v1.1.3c
//
// Each entry: its name (a URI path or a JSON-RPC method), the handler it calls (names sharing a
// handler are aliases of each other: `aliasOf` names the first of them), how it is served (`json`,
// or `binary`: epee's portable storage), and `servedWhenRestricted: false` for those a daemon run
// with --restricted-rpc does not serve (the `_IF(…, !m_restricted)` forms).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface MethodEntry {
  name: string;
  handler: string;
  command: string;
  /** The first name served by the same handler, when this one is an alias of it. */
  aliasOf?: string;
  /** `binary`: MAP_URI_AUTO_BIN2 (epee portable storage, not JSON). */
  format: 'json' | 'binary';
  /** false: not served by a daemon started with --restricted-rpc (the `_IF(…, !m_restricted)` forms). */
  servedWhenRestricted: boolean;
}

export interface DaemonMethodTable {
  program: 'salviumd';
  version: string;
  source: string;
  /** URI endpoints (`/get_info`), JSON and binary, in the order of the map. */
  uri: MethodEntry[];
  /** `/json_rpc` methods, in the order of the map. */
  jsonRpc: MethodEntry[];
}

const URI = /^\s*MAP_URI_AUTO_(JON2|BIN2)(_IF)?\(\s*"([^"]+)"\s*,\s*(\w+)\s*,\s*(\w+)\s*(?:,\s*(!?\s*\w+))?\s*\)/;
const JSON_RPC = /^\s*MAP_JON_RPC(_WE)?(_IF)?\(\s*"([^"]+)"\s*,\s*(\w+)\s*,\s*(\w+)\s*(?:,\s*(!?\s*\w+))?\s*\)/;

function servedWhenRestricted(conditional: string | undefined, condition: string | undefined, where: string): boolean {
  if (!conditional) return true;
  if (condition?.replace(/\s/g, '') !== '!m_restricted') throw new Error(`${where}: unknown condition ${condition}`);
  return false;
}

/** Mark every name whose handler an earlier name of the same list already calls. */
function withAliases(entries: MethodEntry[]): MethodEntry[] {
  const first = new Map<string, string>();
  return entries.map((e) => {
    const f = first.get(e.handler);
    if (f === undefined) {
      first.set(e.handler, e.name);
      return e;
    }
    return { ...e, aliasOf: f };
  });
}

/** The method table of core_rpc_server.h's text. Throws when the maps are not found. */
export function parseCoreRpcServer(text: string, version: string, source: string): DaemonMethodTable {
  const uri: MethodEntry[] = [];
  const jsonRpc: MethodEntry[] = [];
  text.split('\n').forEach((line, i) => {
    const where = `${source}:${i + 1}`;
    const u = URI.exec(line);
    if (u) {
      const [, kind, cond, name, handler, command, condition] = u;
      uri.push({
        name: name!,
        handler: handler!,
        command: command!,
        format: kind === 'BIN2' ? 'binary' : 'json',
        servedWhenRestricted: servedWhenRestricted(cond, condition, where),
      });
      return;
    }
    const j = JSON_RPC.exec(line);
    if (j) {
      const [, , cond, name, handler, command, condition] = j;
      jsonRpc.push({
        name: name!,
        handler: handler!,
        command: command!,
        format: 'json',
        servedWhenRestricted: servedWhenRestricted(cond, condition, where),
      });
    }
  });
  if (uri.length === 0 || jsonRpc.length === 0) throw new Error(`${source}: no URI map or no /json_rpc map found`);
  return {
    program: 'salviumd',
    version,
    source: 'src/rpc/core_rpc_server.h',
    uri: withAliases(uri),
    jsonRpc: withAliases(jsonRpc),
  };
}

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Where the table of a release is kept. */
export const daemonTableFile = (version: string): string =>
  join(ROOT, 'fixtures', `salvium-${version}`, 'daemon-rpc-methods.json');

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const [header, version] = process.argv.slice(2);
  if (!header || !version) {
    process.stderr.write(
      'usage: node dist/scripts/daemon-rpc-methods.js <core_rpc_server.h> <version, e.g. v1.1.3c>\n',
    );
    process.exit(2);
  }
  try {
    const table = parseCoreRpcServer(readFileSync(header, 'utf8'), version, header);
    const out = daemonTableFile(version);
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, `${JSON.stringify(table, null, 2)}\n`);
    const n = (l: MethodEntry[], f: (e: MethodEntry) => boolean): number => l.filter(f).length;
    process.stdout.write(
      `${out}: ${table.uri.length} URI endpoints (${n(table.uri, (e) => e.format === 'binary')} binary), ${table.jsonRpc.length} JSON-RPC methods\n`,
    );
  } catch (err) {
    process.stderr.write(`daemon-rpc-methods: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  }
}
