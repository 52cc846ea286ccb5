// docs/sim-coverage.md's daemon section against the method table of salviumd v1.1.3c
// (fixtures/salvium-v1.1.3c/daemon-rpc-methods.json, extracted from core_rpc_server.h by
// scripts/daemon-rpc-methods.ts): the same methods, each modelled (served, answering something
// other than "not found" or the refusal), refused (the refusal) or binary (not served); and a daemon
// run with --restricted-rpc leaves out exactly the methods the real one leaves out.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NOT_MODELLED_CODE } from '../../harness/sim/http/not-modelled.js';
import { cleanup, post, rpc, startDaemon, stopAll, tempDir, type SimDaemon } from '../helpers/sim.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

interface Entry {
  name: string;
  format: 'json' | 'binary';
  servedWhenRestricted: boolean;
}
const table = JSON.parse(
  readFileSync(join(ROOT, 'fixtures', 'salvium-v1.1.3c', 'daemon-rpc-methods.json'), 'utf8'),
) as {
  uri: Entry[];
  jsonRpc: Entry[];
};

type Status = 'modelled' | 'refused' | 'binary (not served)';

/** The rows of the table under `heading` in the daemon section: each name of the first cell → the status. */
function docRows(heading: string): Map<string, Status> {
  const doc = readFileSync(join(ROOT, 'docs', 'sim-coverage.md'), 'utf8');
  const section = doc.slice(doc.indexOf('## Daemon (salviumd)'));
  expect(section.startsWith('## Daemon (salviumd)'), 'docs/sim-coverage.md has a "## Daemon (salviumd)" section').toBe(
    true,
  );
  const start = section.indexOf(`### ${heading}`);
  expect(start, `the daemon section has a "### ${heading}" table`).toBeGreaterThanOrEqual(0);
  const rows = new Map<string, Status>();
  for (const line of section.slice(start).split('\n').slice(1)) {
    if (line.startsWith('### ')) break;
    const cells = line.split('|').map((c) => c.trim());
    if (cells.length < 4 || !cells[1]!.startsWith('`')) continue;
    const status = cells[2] as Status;
    for (const m of cells[1]!.matchAll(/`([^`]+)`/g)) {
      expect(rows.has(m[1]!), `${m[1]} is listed once`).toBe(false);
      rows.set(m[1]!, status);
    }
  }
  return rows;
}

const jsonRows = docRows('JSON-RPC methods');
const uriRows = docRows('URI endpoints');

/** Names with a status. */
const withStatus = (rows: Map<string, Status>, s: Status): string[] =>
  [...rows].filter(([, st]) => st === s).map(([n]) => n);

describe('docs/sim-coverage.md lists the real daemon methods', () => {
  it('the JSON-RPC table names exactly the /json_rpc methods of v1.1.3c (aliases included)', () => {
    expect([...jsonRows.keys()].sort()).toEqual(table.jsonRpc.map((e) => e.name).sort());
  });

  it('the URI table names exactly the URI endpoints of v1.1.3c', () => {
    expect([...uriRows.keys()].sort()).toEqual(table.uri.map((e) => e.name).sort());
  });

  it('every status is one of the three; only epee binary endpoints are binary (not served)', () => {
    for (const [name, s] of [...jsonRows, ...uriRows])
      expect(['modelled', 'refused', 'binary (not served)'], name).toContain(s);
    const binary = table.uri.filter((e) => e.format === 'binary').map((e) => e.name);
    expect(withStatus(uriRows, 'binary (not served)').sort()).toEqual(binary.sort());
    expect(withStatus(jsonRows, 'binary (not served)')).toEqual([]);
  });
});

let dir: string;
let daemon: SimDaemon;
let restricted: SimDaemon;
beforeAll(async () => {
  dir = tempDir('saltnet-coverage-');
  [daemon, restricted] = await Promise.all([
    startDaemon(join(dir, 'open')),
    startDaemon(join(dir, 'restricted'), { extra: ['--restricted-rpc'] }),
  ]);
});
afterAll(async () => {
  await stopAll();
  cleanup(dir);
});

/** /stop_daemon would end the daemon the other calls need: it is called last, in its own test. */
const LAST = '/stop_daemon';

describe('the simulated daemon serves what the doc says', () => {
  it('every modelled JSON-RPC method answers, never -32601 or the refusal', async () => {
    for (const name of withStatus(jsonRows, 'modelled')) {
      const r = await rpc(daemon.port, name);
      expect(r?.error?.code, `${name}: ${JSON.stringify(r)}`).not.toBe(-32601);
      expect(r?.error?.code, name).not.toBe(NOT_MODELLED_CODE);
    }
  });

  it('every refused JSON-RPC method answers the refusal, naming itself and --backend salvium', async () => {
    const refused = withStatus(jsonRows, 'refused');
    expect(refused).toContain('rpc_access_info');
    for (const name of refused) {
      const r = await rpc(daemon.port, name);
      expect(r.error, name).toEqual({
        code: NOT_MODELLED_CODE,
        message: expect.stringMatching(
          new RegExp(
            `^saltnet simulator: ${name} is not modelled \\(.+\\); run it on real Salvium \\(--backend salvium\\)$`,
          ),
        ),
      });
    }
  });

  it('every modelled URI endpoint answers 200 with JSON', async () => {
    for (const path of withStatus(uriRows, 'modelled').filter((p) => p !== LAST)) {
      const r = await post(daemon.port, path, {});
      expect(r.status, path).toBe(200);
      expect(r.text.startsWith('{'), path).toBe(true);
    }
    expect((await post(daemon.port, LAST, {})).json).toEqual({ status: 'OK', untrusted: false });
  });
});

describe('with --restricted-rpc, the methods the real daemon leaves out', () => {
  it('answer -32601 (JSON-RPC) or 404 (URI); the others are served', async () => {
    for (const e of table.jsonRpc) {
      const r = await rpc(restricted.port, e.name);
      if (e.servedWhenRestricted) expect(r?.error?.code, e.name).not.toBe(-32601);
      else expect(r.error, e.name).toEqual({ code: -32601, message: 'Method not found' });
    }
    for (const e of table.uri.filter((x) => x.format === 'json' && x.name !== LAST)) {
      const r = await post(restricted.port, e.name, {});
      expect(r.status, e.name).toBe(e.servedWhenRestricted ? 200 : 404);
    }
  });
});
