// The README's key table and the example file must not drift from the key table in schema.ts.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadConfigFile } from '../../harness/config/load.js';
import { KEYS } from '../../harness/config/schema.js';

const readme = readFileSync(fileURLToPath(new URL('../../harness/config/README.md', import.meta.url)), 'utf8');
/** The rows of the table headed `| key | flag | env | default | what |`. */
const table = readme.split('| key | flag | env | default | what |\n')[1]!.split('\n\n')[0]!.split('\n').slice(1);
const rows = new Map(
  table.map((l) => {
    const cells = l.split('|').map((c) => c.trim());
    return [cells[1]!.replace(/`/g, ''), { flag: cells[2]!, env: cells[3]!, def: cells[4]! }] as const;
  }),
);

describe('harness/config/README.md', () => {
  it('has one row per key with its flag, environment variable and default', () => {
    expect([...rows.keys()]).toEqual(KEYS.map((k) => k.key));
    for (const k of KEYS) {
      const row = rows.get(k.key)!;
      if (k.flag && !k.positional) expect(row.flag, k.key).toContain(`--${k.flag}`);
      expect(row.env, k.key).toBe(k.env ? `\`${k.env}\`` : '');
      if (k.default !== undefined && k.key !== 'cacheDir') expect(row.def, k.key).toContain(`\`${String(k.default)}\``);
    }
  });
});

describe('fixtures/config/saltnet.config.example.yaml', () => {
  it('sets every key, and is valid', async () => {
    const c = await loadConfigFile(
      fileURLToPath(new URL('../../fixtures/config/saltnet.config.example.yaml', import.meta.url)),
    );
    for (const k of KEYS) {
      const v = k.key.split('.').reduce<unknown>((o, s) => (o as Record<string, unknown> | undefined)?.[s], c.config);
      expect(v, k.key).toBeDefined();
    }
  });
});
