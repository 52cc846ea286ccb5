import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  ARTIFACT_FILES,
  ArtifactWriteError,
  createArtifacts,
  folderTimestamp,
  readArtifacts,
  slugify,
} from '../../harness/runner/artifacts.js';
import type { ScenarioResult } from '../../harness/scenario/types.js';

let root: string;
beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'saltnet-artifacts-'));
});
afterEach(() => {
  fs.rmSync(root, { recursive: true, force: true });
});

const scenario = { file: 'scenarios/tokens.yaml', name: 'Token listed — one block after creation!' };
const fixed = () => new Date(Date.UTC(2025, 0, 2, 3, 4, 5, 678));

const result: ScenarioResult = {
  file: scenario.file,
  name: scenario.name,
  status: 'failed',
  ms: 1234,
  backend: 'sim',
  steps: [
    {
      index: 0,
      name: 'create_token',
      action: 'create_token',
      status: 'failed',
      ms: 12,
      request: { ticker: 'ABCD', supply: 18440000000000000000n },
      response: { error: { code: -1, message: 'nope' } },
      failure: { message: 'unexpected error', path: 'error', pos: { file: scenario.file, line: 3, col: 5 } },
    },
  ],
  failure: { message: 'unexpected error' },
  logTails: { daemon: ['a', 'b'] },
};

describe('artifacts', () => {
  it('folder name: <root>/<timestamp>-<slug>, layout, and a round trip through readArtifacts', () => {
    const a = createArtifacts(path.join(root, 'nested', 'runs'), scenario, { now: fixed });
    expect(a.dir).toBe(path.join(root, 'nested', 'runs', '20250102T030405.678Z-token-listed-one-block-after-creation'));

    const resolved = {
      name: scenario.name,
      requires: { height: 1201, unlocked: { SAL1: 110000000000n, BIG: 18446744073709551615n } },
      steps: [
        {
          create_token: { ticker: 'abcd', supply: 1000, name: 'Démo "quoted"' },
          pos: { file: scenario.file, line: 3, col: 5 },
        },
      ],
      fn: () => 1,
    };
    const scenarioFile = a.writeScenario(resolved);
    const commandsFile = a.writeCommandLines([
      'salviumd --testnet --data-dir /tmp/x',
      'salvium-wallet-rpc --password *** --rpc-bind-port 1',
    ]);
    a.transcript({
      time: fixed(),
      target: 'wallet',
      path: '/json_rpc',
      request: { method: 'get_balance', params: { asset_type: 'SAL1' } },
      status: 200,
      response: { result: { balance: 18446744073709551615n } },
      ms: 3.5,
    });
    a.transcript({
      time: Date.UTC(2025, 0, 2),
      target: 'daemon',
      path: '/get_info',
      request: undefined,
      status: null,
      response: undefined,
      ms: 1,
    });
    a.transcript({
      time: '2025-01-02T00:00:01.000Z',
      target: 'wallet:bob',
      path: '/json_rpc',
      request: { method: 'x' },
      status: 500,
      response: 'Internal Server Error\n',
      ms: 2,
    });

    const logSrc = path.join(root, 'daemon-src.log');
    fs.writeFileSync(logSrc, 'line 1\nline 2\n');
    const walletSrc = path.join(root, 'w.txt');
    fs.writeFileSync(walletSrc, 'wallet log\n');
    const copied = a.copyLogs({ daemon: logSrc, 'wallet-rpc/main': walletSrc });
    const resultFile = a.writeResult(result);
    a.close();
    a.close(); // idempotent

    expect(fs.readdirSync(a.dir).sort()).toEqual([
      'commands.txt',
      'logs',
      'result.json',
      'scenario.yaml',
      'transcript.jsonl',
    ]);
    expect(scenarioFile).toBe(path.join(a.dir, ARTIFACT_FILES.scenario));
    expect(commandsFile).toBe(path.join(a.dir, ARTIFACT_FILES.commands));
    expect(resultFile).toBe(path.join(a.dir, ARTIFACT_FILES.result));
    expect(copied).toEqual({
      daemon: path.join(a.dir, 'logs', 'daemon.log'),
      'wallet-rpc/main': path.join(a.dir, 'logs', 'wallet-rpc_main.log'),
    });
    expect(fs.readFileSync(path.join(a.dir, 'logs', 'daemon.log'), 'utf8')).toBe('line 1\nline 2\n');
    expect(fs.readFileSync(scenarioFile, 'utf8')).toContain('BIG: 18446744073709551615\n');

    // every transcript line is JSON on its own
    const raw = fs.readFileSync(path.join(a.dir, ARTIFACT_FILES.transcript), 'utf8').trimEnd().split('\n');
    expect(raw).toHaveLength(3);
    const first = JSON.parse(raw[0] as string);
    expect(Object.keys(first)).toEqual(['time', 'target', 'path', 'request', 'status', 'response', 'ms']);
    expect(first.response.result.balance).toBe('18446744073709551615');
    expect(first.time).toBe('2025-01-02T03:04:05.678Z');

    const back = readArtifacts(a.dir);
    expect(back.dir).toBe(a.dir);
    expect(back.scenario).toEqual({
      name: scenario.name,
      requires: { height: 1201, unlocked: { SAL1: 110000000000, BIG: 18446744073709551615n } },
      steps: [
        {
          create_token: { ticker: 'abcd', supply: 1000, name: 'Démo "quoted"' },
          pos: { file: scenario.file, line: 3, col: 5 },
        },
      ],
    });
    expect(back.commandLines).toEqual([
      'salviumd --testnet --data-dir /tmp/x',
      'salvium-wallet-rpc --password *** --rpc-bind-port 1',
    ]);
    expect(back.transcript.map((t) => [t.target, t.status, t.time])).toEqual([
      ['wallet', 200, '2025-01-02T03:04:05.678Z'],
      ['daemon', null, '2025-01-02T00:00:00.000Z'],
      ['wallet:bob', 500, '2025-01-02T00:00:01.000Z'],
    ]);
    expect(back.transcript[1]).not.toHaveProperty('request');
    expect(back.result?.status).toBe('failed');
    expect(back.result?.steps[0]?.request).toEqual({ ticker: 'ABCD', supply: '18440000000000000000' });
    expect(back.result?.steps[0]?.failure?.pos).toEqual({ file: scenario.file, line: 3, col: 5 });
    expect(back.result?.logTails).toEqual({ daemon: ['a', 'b'] });
    expect(back.logs).toEqual({
      daemon: path.join(a.dir, 'logs', 'daemon.log'),
      'wallet-rpc_main': path.join(a.dir, 'logs', 'wallet-rpc_main.log'),
    });
  });

  it('never reuses an existing folder', () => {
    const a = createArtifacts(root, scenario, { now: fixed });
    a.writeResult(result);
    const b = createArtifacts(root, scenario, { now: fixed });
    const c = createArtifacts(root, scenario, { now: fixed });
    expect(b.dir).toBe(`${a.dir}-2`);
    expect(c.dir).toBe(`${a.dir}-3`);
    expect(fs.existsSync(path.join(a.dir, 'result.json'))).toBe(true);
    expect(fs.readdirSync(b.dir)).toEqual([]);
    for (const x of [a, b, c]) x.close();
  });

  it('redacts secrets from command lines, transcript, scenario, result and logs (defence in depth)', () => {
    const a = createArtifacts(root, scenario, { secrets: ['hunter2', 's3cr"t'] });
    a.writeCommandLines(['salvium-wallet-rpc --password hunter2', 'x --rpc-login user:s3cr"t']);
    a.writeScenario({ wallets: { bob: { password: 'hunter2' } } });
    a.transcript({
      time: 0,
      target: 'wallet',
      path: '/json_rpc',
      request: { params: { password: 's3cr"t' } },
      status: 200,
      response: { result: { note: 'hunter2hunter2' } },
      ms: 1,
    });
    const log = path.join(root, 'src.log');
    fs.writeFileSync(log, 'started with hunter2\n');
    a.copyLogs({ wallet: log });
    a.writeResult({ ...result, failure: { message: 'login s3cr"t refused' } });
    a.close();
    for (const f of ['commands.txt', 'scenario.yaml', 'transcript.jsonl', 'result.json', 'logs/wallet.log']) {
      const text = fs.readFileSync(path.join(a.dir, f), 'utf8');
      expect(text, f).not.toContain('hunter2');
      expect(text, f).not.toContain('s3cr');
      expect(text, f).toContain('***');
    }
    const back = readArtifacts(a.dir);
    expect(back.commandLines).toEqual(['salvium-wallet-rpc --password ***', 'x --rpc-login user:***']);
    expect(back.transcript[0]?.request).toEqual({ params: { password: '***' } }); // still valid JSON
    expect(back.result?.failure?.message).toBe('login *** refused');
  });

  it('accepts a custom redactor', () => {
    const a = createArtifacts(root, scenario, {
      secrets: ['pw'],
      redact: (t, s) => s.reduce((x, y) => x.split(y).join('[hidden]'), t),
    });
    a.writeCommandLines(['--password pw']);
    a.close();
    expect(readArtifacts(a.dir).commandLines).toEqual(['--password [hidden]']);
  });

  it('a scenario given as text is written as is', () => {
    const a = createArtifacts(root, scenario);
    a.writeScenario('name: x\nsteps:\n  - mine: 1\n');
    expect(readArtifacts(a.dir).scenario).toEqual({ name: 'x', steps: [{ mine: 1 }] });
    a.close();
  });

  it('surfaces write errors (a full disk) instead of losing them', () => {
    if (!fs.existsSync('/dev/full')) return;
    const a = createArtifacts(root, scenario);
    fs.symlinkSync('/dev/full', path.join(a.dir, ARTIFACT_FILES.transcript));
    fs.symlinkSync('/dev/full', path.join(a.dir, ARTIFACT_FILES.result));
    const entry = { time: 0, target: 'daemon', path: '/get_info', request: {}, status: 200, response: {}, ms: 1 };
    expect(() => a.transcript(entry)).toThrow(ArtifactWriteError);
    try {
      a.writeResult(result);
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(ArtifactWriteError);
      expect((e as ArtifactWriteError).code).toBe('ENOSPC');
      expect((e as Error).message).toContain(path.join(a.dir, 'result.json'));
    }
    a.close();
  });

  it('copies every log it can, then reports the missing ones', () => {
    const a = createArtifacts(root, scenario);
    const ok = path.join(root, 'ok.log');
    fs.writeFileSync(ok, 'ok\n');
    expect(() => a.copyLogs({ gone: path.join(root, 'nope.log'), daemon: ok })).toThrow(/could not copy .*nope\.log/);
    expect(fs.readFileSync(path.join(a.dir, 'logs', 'daemon.log'), 'utf8')).toBe('ok\n');
    a.close();
  });

  it('writes after close throw', () => {
    const a = createArtifacts(root, scenario);
    a.close();
    expect(() => a.writeCommandLines(['x'])).toThrow(/closed/);
  });

  it('readArtifacts: a missing file is undefined, a transcript line cut short by a crash is dropped, a bad one throws', () => {
    const a = createArtifacts(root, scenario);
    a.close();
    const t = path.join(a.dir, ARTIFACT_FILES.transcript);
    fs.writeFileSync(t, '{"target":"daemon","time":"x","path":"/","status":200,"ms":1}\n{"target":"dae');
    const back = readArtifacts(a.dir);
    expect(back.scenario).toBeUndefined();
    expect(back.result).toBeUndefined();
    expect(back.transcript).toHaveLength(1);
    fs.writeFileSync(t, 'garbage\n{}\n');
    expect(() => readArtifacts(a.dir)).toThrow(/transcript\.jsonl:1: not JSON/);
  });

  it('slugs and timestamps', () => {
    expect(slugify('Token listed — one block after creation!')).toBe('token-listed-one-block-after-creation');
    expect(slugify('Überweisung à Bob')).toBe('uberweisung-a-bob');
    expect(slugify('../../etc/passwd')).toBe('etc-passwd');
    expect(slugify('日本語')).toBe('scenario');
    expect(slugify('x'.repeat(100))).toHaveLength(60);
    expect(folderTimestamp(fixed())).toBe('20250102T030405.678Z');
  });
});
