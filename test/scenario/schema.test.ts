import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { describe, expect, it } from 'vitest';
import { ACTION_KEYS, scenarioJsonSchema, validateDocument, writeJsonSchema } from '../../harness/scenario/schema.js';

const rich = readFileSync(fileURLToPath(new URL('./fixtures/rich.yaml', import.meta.url)), 'utf8');

// ---- a small JSON Schema (2020-12) validator for the keywords the export uses ----
// No JSON Schema validator is installed, so this one checks instances and, by refusing unknown
// keywords, the schema's structure too.

type Schema = boolean | Record<string, unknown>;
const ANNOTATIONS = new Set(['$schema', '$id', 'title', 'description', '$defs', 'default', 'examples']);

class Validator {
  constructor(private readonly root: Record<string, unknown>) {}

  errors(v: unknown, s: Schema = this.root, at = '$'): string[] {
    if (s === true) return [];
    if (s === false) return [`${at}: no value allowed`];
    const out: string[] = [];
    for (const [k, x] of Object.entries(s)) {
      if (ANNOTATIONS.has(k)) continue;
      const sub = (schema: unknown, value: unknown, where = at) => this.errors(value, schema as Schema, where);
      switch (k) {
        case '$ref': {
          const ref = x as string;
          if (!ref.startsWith('#/$defs/')) throw new Error(`unsupported $ref ${ref}`);
          const target = (this.root.$defs as Record<string, Schema> | undefined)?.[ref.slice(8)];
          if (target === undefined) throw new Error(`dangling $ref ${ref}`);
          out.push(...sub(target, v));
          break;
        }
        case 'type': {
          const types = Array.isArray(x) ? (x as string[]) : [x as string];
          const ok = types.some((t) =>
            t === 'integer'
              ? typeof v === 'number' && Number.isInteger(v)
              : t === 'number'
                ? typeof v === 'number'
                : t === 'array'
                  ? Array.isArray(v)
                  : t === 'object'
                    ? typeof v === 'object' && v !== null && !Array.isArray(v)
                    : t === 'null'
                      ? v === null
                      : typeof v === t,
          );
          if (!ok) out.push(`${at}: not of type ${types.join('|')}`);
          break;
        }
        case 'properties':
          if (isObj(v))
            for (const [p, ps] of Object.entries(x as object)) if (p in v) out.push(...sub(ps, v[p], `${at}.${p}`));
          break;
        case 'required':
          if (isObj(v)) for (const p of x as string[]) if (!(p in v)) out.push(`${at}: missing ${p}`);
          break;
        case 'additionalProperties':
          if (isObj(v)) {
            const known = Object.keys((s.properties as object | undefined) ?? {});
            for (const [p, pv] of Object.entries(v)) if (!known.includes(p)) out.push(...sub(x, pv, `${at}.${p}`));
          }
          break;
        case 'propertyNames':
          if (isObj(v)) for (const p of Object.keys(v)) out.push(...sub(x, p, `${at}[key ${p}]`));
          break;
        case 'items':
          if (Array.isArray(v)) v.forEach((el, i) => out.push(...sub(x, el, `${at}[${i}]`)));
          break;
        case 'minItems':
          if (Array.isArray(v) && v.length < (x as number)) out.push(`${at}: fewer than ${x} items`);
          break;
        case 'maxItems':
          if (Array.isArray(v) && v.length > (x as number)) out.push(`${at}: more than ${x} items`);
          break;
        case 'minProperties':
          if (isObj(v) && Object.keys(v).length < (x as number)) out.push(`${at}: fewer than ${x} properties`);
          break;
        case 'maxProperties':
          if (isObj(v) && Object.keys(v).length > (x as number)) out.push(`${at}: more than ${x} properties`);
          break;
        case 'minLength':
          if (typeof v === 'string' && [...v].length < (x as number)) out.push(`${at}: shorter than ${x}`);
          break;
        case 'maxLength':
          if (typeof v === 'string' && [...v].length > (x as number)) out.push(`${at}: longer than ${x}`);
          break;
        case 'pattern':
          if (typeof v === 'string' && !new RegExp(x as string, 'u').test(v)) out.push(`${at}: does not match ${x}`);
          break;
        case 'minimum':
          if (typeof v === 'number' && v < (x as number)) out.push(`${at}: below ${x}`);
          break;
        case 'maximum':
          if (typeof v === 'number' && v > (x as number)) out.push(`${at}: above ${x}`);
          break;
        case 'exclusiveMinimum':
          if (typeof v === 'number' && v <= (x as number)) out.push(`${at}: not above ${x}`);
          break;
        case 'exclusiveMaximum':
          if (typeof v === 'number' && v >= (x as number)) out.push(`${at}: not below ${x}`);
          break;
        case 'enum':
          if (!(x as unknown[]).some((e) => e === v)) out.push(`${at}: not one of ${JSON.stringify(x)}`);
          break;
        case 'const':
          if (x !== v) out.push(`${at}: not ${JSON.stringify(x)}`);
          break;
        case 'anyOf':
          if (!(x as Schema[]).some((o) => sub(o, v).length === 0)) out.push(`${at}: matches none of anyOf`);
          break;
        case 'oneOf': {
          const n = (x as Schema[]).filter((o) => sub(o, v).length === 0).length;
          if (n !== 1) out.push(`${at}: matches ${n} of oneOf (needs exactly 1)`);
          break;
        }
        case 'allOf':
          for (const o of x as Schema[]) out.push(...sub(o, v));
          break;
        case 'not':
          if (sub(x, v).length === 0) out.push(`${at}: matches a forbidden schema`);
          break;
        default:
          throw new Error(`unexpected JSON Schema keyword ${k} at ${at}`);
      }
    }
    return out;
  }
}

function isObj(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

describe('JSON Schema export', () => {
  const schema = scenarioJsonSchema();
  const v = new Validator(schema);

  it('is JSON draft 2020-12 with descriptions', () => {
    expect(JSON.parse(JSON.stringify(schema))).toEqual(schema);
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(schema.type).toBe('object');
    expect(schema.required).toEqual(['name', 'steps']);
    expect(schema.additionalProperties).toBe(false);
    expect(typeof schema.description).toBe('string');
    const props = schema.properties as Record<string, Record<string, unknown>>;
    expect(Object.keys(props)).toEqual([
      'name',
      'description',
      'tags',
      'backends',
      'nodes',
      'requires',
      'wallets',
      'steps',
      'artifacts',
    ]);
    for (const p of Object.values(props)) expect(typeof p.description).toBe('string');
    const step = props.steps!.items as Record<string, unknown>;
    expect(step.additionalProperties).toBe(false);
    expect(step.oneOf).toEqual(ACTION_KEYS.map((k) => ({ required: [k] })));
    const stepProps = step.properties as Record<string, Record<string, unknown>>;
    for (const k of [...ACTION_KEYS, 'name', 'wallet', 'expect', 'expect_error', 'save']) {
      expect(stepProps[k], k).toBeDefined();
      expect(typeof stepProps[k]!.description, k).toBe('string');
    }
    expect((schema.$defs as Record<string, unknown>).matcher).toBeDefined();
  });

  it('accepts the rich example (and the small validator knows every keyword used)', () => {
    expect(v.errors(parseYaml(rich))).toEqual([]);
    expect(v.errors(parseYaml('name: min\nsteps:\n  - get_tokens:\n  - restart: daemon\n'))).toEqual([]);
  });

  it('rejects what the parser rejects structurally', () => {
    const bad = (text: string) => v.errors(parseYaml(text));
    expect(bad('steps: [{ mine: 1 }]')).toContain('$: missing name');
    expect(bad('name: x\nsteps: []')).toContain('$.steps: fewer than 1 items');
    expect(bad('name: x\nnmae: y\nsteps: [{ mine: 1 }]')).toContain('$.nmae: no value allowed');
    expect(bad('name: x\nsteps: [{ mine: 1, restart: wallet }]')).toContain(
      '$.steps[0]: matches 2 of oneOf (needs exactly 1)',
    );
    expect(bad('name: x\nsteps: [{ name: lonely }]')).toContain('$.steps[0]: matches 0 of oneOf (needs exactly 1)');
    expect(bad('name: x\nsteps: [{ restart: node }]')).toContain('$.steps[0].restart: not one of ["daemon","wallet"]');
    expect(bad('name: x\nsteps: [{ transfer: { to: x, amount: 1.123456789 SAL1 } }]')).toContain(
      '$.steps[0].transfer.amount: matches none of anyOf',
    );
    expect(bad('name: x\nsteps: [{ transfer: { to: x, amount: "${half}" } }]')).toEqual([]);
    expect(bad('name: x\nsteps: [{ wait: { get_tokens: {}, until: { result.x: 1 } } }]')).toContain(
      '$.steps[0].wait: matches none of anyOf',
    );
    expect(bad('name: x\nwallets: { main: {} }\nsteps: [{ mine: 1 }]')).toContain(
      '$.wallets[key main]: matches a forbidden schema',
    );
    expect(bad('name: x\nsteps: [{ get_tokens: {}, expect: { result.n: { absent: false } } }]').length).toBeGreaterThan(
      0,
    );
  });

  it('is written to a file by writeJsonSchema', () => {
    const dir = mkdtempSync(join(tmpdir(), 'saltnet-schema-'));
    try {
      const file = join(dir, 'nested', 'scenario.schema.json');
      writeJsonSchema(file);
      expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(schema);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('validateDocument on plain data (JSON scenarios)', () => {
  it('validates without YAML and converts amounts', () => {
    const r = validateDocument({
      name: 'j',
      requires: { unlocked: { SAL1: '2 SAL1' } },
      steps: [{ transfer: { to: '${main.address}', amount: '0.5 SAL1' } }],
    });
    expect(r.problems).toEqual([]);
    expect(r.value).toMatchObject({
      requires: { unlocked: { SAL1: 200000000n } },
      steps: [{ transfer: { amount: 50000000n } }],
    });
  });

  it('returns problems by path', () => {
    const r = validateDocument({ name: 'j', steps: [{ transfer: { to: '${main.address}', amount: '1 BTC' } }] });
    expect(r.value).toBeUndefined();
    expect(r.problems).toEqual([
      {
        path: ['steps', 0, 'transfer', 'amount'],
        at: 'value',
        message: '"1 BTC" is not an amount: unknown unit BTC (units: SAL1, SAL, XMR)',
        expected: expect.stringMatching(/^an amount: /),
      },
    ]);
  });
});
