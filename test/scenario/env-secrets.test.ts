// `${env.NAME}` values are secrets: a scenario run writes none of them into its artifacts
// (transcript.jsonl, result.json, the logs), its JUnit report or its output; `${env.public.NAME}`
// values stay readable.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envReferences } from '../../harness/scenario/env-secrets.js';
import { createRedaction } from '../../harness/scenario/redaction.js';
import { interpolate } from '../../harness/scenario/interpolate.js';
import { parseScenario } from '../../harness/scenario/parse.js';
import { cleanup, tempDir } from '../helpers/sim.js';

const CLI = fileURLToPath(new URL('../../dist/harness/cli/main.js', import.meta.url));
const SECRET = 'hunter2-not-an-address-0123';
const PUBLIC = 'plainly-public-value-4567';

describe('envRedaction', () => {
  it('finds ${env.NAME} and ${env.public.NAME} anywhere in a scenario, keys and escapes included', () => {
    const refs = envReferences({
      steps: [{ params: { a: 'x ${env.A} y', [`\${env.B}`]: ['${env.public.C}', '$${env.D}'] } }],
    });
    expect(refs).toEqual([
      { name: 'A', public: false },
      { name: 'B', public: false },
      { name: 'C', public: true },
    ]);
  });

  it('replaces each secret value by its label, leaves public ones, and is idempotent', () => {
    const env = { A: 'alpha-secret-value-0001', C: 'gamma-public', E: 'alpha' };
    const r = createRedaction({ x: '${env.A} ${env.public.C} ${env.E} ${env.MISSING}' }, { env });
    expect([...r.secrets].sort()).toEqual(['alpha', 'alpha-secret-value-0001']);
    const once = r.text('alpha-secret-value-0001, alpha and gamma-public');
    expect(once).toBe('<redacted env.A>, <redacted env.E> and gamma-public');
    expect(r.text(once)).toBe(once);
    // keys stay (unless one is a long secret whole); values go
    expect(r.value({ n: 12n, list: ['alpha-secret-value-0001'], 'alpha-secret-value-0001': true, alpha: 1 })).toEqual({
      n: 12n,
      list: ['<redacted env.A>'],
      '<redacted env.A>': true,
      alpha: 1,
    });
  });

  it('replaces a short secret only where it is a whole word of a value, and in sentences only where it is quoted', () => {
    const r = createRedaction({ x: '${env.FOO} ${env.W}' }, { env: { FOO: 'x', W: 'call' } });
    expect(r.text('unexpected x in "x" and x-y, xx')).toBe(
      'unexpected <redacted env.FOO> in "<redacted env.FOO>" and <redacted env.FOO>-y, xx',
    );
    expect(r.message('call query_key: expected "x", got "call"')).toBe(
      'call query_key: expected "<redacted env.FOO>", got "<redacted env.W>"',
    );
    // a JSON key is never touched, so a report still finds its fields
    expect(r.value({ index: 0, expected: 'x', x: 'unexpected' })).toEqual({
      index: 0,
      expected: '<redacted env.FOO>',
      x: 'unexpected',
    });
    const step = r.result({
      index: 2,
      name: 'call get_info',
      action: 'call',
      status: 'failed' as const,
      ms: 1,
      request: { method: 'x' },
      failure: { message: 'unexpected error -32601', expected: 'a result (add expect_error to expect this error)' },
    });
    expect(step).toEqual({
      index: 2,
      name: 'call get_info',
      action: 'call',
      status: 'failed',
      ms: 1,
      request: { method: '<redacted env.FOO>' },
      failure: { message: 'unexpected error -32601', expected: 'a result (add expect_error to expect this error)' },
    });
  });

  it('redacts a wallet secret an exchange reveals from then on, unless the scenario keeps them', () => {
    const seed = 'eleven erected awoken gecko actress omega cajun beer scrub dude powder keyboard ongoing';
    const exchange = [
      { method: 'query_key', params: { key_type: 'mnemonic' } },
      { id: '0', jsonrpc: '2.0', result: { key: seed } },
    ] as const;
    const r = createRedaction({}, { env: {} });
    expect(r.text(seed)).toBe(seed);
    r.observe(...exchange);
    expect(r.text(`the seed: ${seed}.`)).toBe('the seed: <redacted query_key key>.');
    expect(r.message(`result.key: expected "x", got "${seed}"`)).toBe(
      'result.key: expected "x", got "<redacted query_key key>"',
    );
    r.observe({ method: 'restore_deterministic_wallet', params: { seed: 'another seed words', password: 'pw' } }, {});
    expect(r.text('another seed words / pw / pwd')).toBe(
      '<redacted restore_deterministic_wallet seed> / <redacted restore_deterministic_wallet password> / pwd',
    );
    const kept = createRedaction({}, { env: {}, keepSecrets: true });
    kept.observe(...exchange);
    expect(kept.text(seed)).toBe(seed);
  });

  it('warns about a secret too short to redact without changing other text', () => {
    expect(createRedaction({ x: '${env.N}' }, { env: { N: '1' } }).warnings).toEqual([
      "${env.N} is 1 character long, hardly a secret: it is redacted where it is a whole word of a value (in saltnet's messages, where it is a quoted value), never inside other words; write ${env.public.N} if it is no secret",
    ]);
  });

  it('interpolates ${env.public.NAME} as the same value', () => {
    expect(interpolate('${env.public.X}/${env.X}', { env: { X: 'v' } })).toBe('v/v');
  });

  it('accepts ${env.public.NAME} in a scenario file, and refuses other env forms', () => {
    const scenario = (value: string) => `name: n\nsteps:\n  - call: { path: /get_info, params: { a: "${value}" } }\n`;
    expect(parseScenario(scenario('${env.public.X} ${env.X} ${env.public}'), 'ok.yaml').steps).toHaveLength(1);
    expect(() => parseScenario(scenario('${env.public.X.Y}'), 'bad.yaml')).toThrow(
      'write ${env.NAME} (or ${env.public.NAME}: not redacted from the artifacts) for the environment variable NAME, not ${env.public.X.Y}',
    );
  });
});

const SCENARIO = `name: an environment secret stays out of the artifacts
requires:
  height: 20
steps:
  - name: the secret goes out in a request
    call: { method: validate_address, params: { address: "\${env.SALTNET_TEST_SECRET}" } }
    expect:
      result.valid: false
  - name: a public value goes out in a request
    call: { method: validate_address, params: { address: "\${env.public.SALTNET_TEST_PUBLIC}" } }
    expect:
      result.valid: false
  - name: fails, expecting the secret
    call: { path: /get_info }
    expect:
      result.nettype: "\${env.SALTNET_TEST_SECRET}"
`;

describe('saltnet run with ${env.…} values', () => {
  let dir: string;
  let out: string;
  let files: string[];
  beforeAll(async () => {
    dir = tempDir('saltnet-env-secrets-');
    writeFileSync(join(dir, 'secret.yaml'), SCENARIO);
    const env = {
      SALTNET_SIM_HASHRATE: '250000',
      SALTNET_STATE_DIR: join(dir, 'state'),
      CI: '1',
      SALTNET_TEST_SECRET: SECRET,
      SALTNET_TEST_PUBLIC: PUBLIC,
    };
    const r = await execa(
      process.execPath,
      [
        CLI,
        'run',
        'secret.yaml',
        '--backend',
        'sim',
        '--reporter',
        'junit',
        '--output',
        'report.xml',
        '--artifacts',
        'arts',
      ],
      { cwd: dir, env, reject: false, all: true },
    );
    out = r.all ?? '';
    expect(r.exitCode, out).toBe(1);
    const walk = (d: string): string[] =>
      readdirSync(d).flatMap((f) => (statSync(join(d, f)).isDirectory() ? walk(join(d, f)) : [join(d, f)]));
    files = [join(dir, 'report.xml'), ...walk(join(dir, 'arts'))];
  }, 120_000);
  afterAll(() => cleanup(dir));

  it('writes the secret nowhere: transcript, result, logs, JUnit, output', () => {
    expect(files.map((f) => f.split('/').pop())).toEqual(
      expect.arrayContaining(['report.xml', 'transcript.jsonl', 'result.json', 'scenario.yaml', 'commands.txt']),
    );
    // the steps ran: the secret went out (the transcript shows both requests) and the last step failed on it
    const transcript = files.find((f) => f.endsWith('transcript.jsonl'))!;
    expect(readFileSync(transcript, 'utf8').match(/"method":"validate_address"/g)).toHaveLength(2);
    expect(out).toContain('fails, expecting the secret');
    for (const f of files) expect(readFileSync(f, 'utf8'), f).not.toContain(SECRET);
    expect(out).not.toContain(SECRET);
  });

  it('shows where the secret was, and the public value as it is', () => {
    const arts = join(dir, 'arts', readdirSync(join(dir, 'arts'))[0]!);
    const transcript = readFileSync(join(arts, 'transcript.jsonl'), 'utf8');
    expect(transcript).toContain('"address":"<redacted env.SALTNET_TEST_SECRET>"');
    expect(transcript).toContain(`"address":"${PUBLIC}"`);
    const junit = readFileSync(join(dir, 'report.xml'), 'utf8');
    expect(junit).toContain('&lt;redacted env.SALTNET_TEST_SECRET&gt;');
    const result = JSON.parse(readFileSync(join(arts, 'result.json'), 'utf8'));
    expect(result.failure.expected).toContain('<redacted env.SALTNET_TEST_SECRET>');
  });
});
