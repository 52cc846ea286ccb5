// zod's issues → problems a user can act on: the key or value at fault, what was expected there (from
// the schema's descriptions), and a did-you-mean for unknown keys and values.
import type { z } from 'zod';
import { describeValue } from '../../common/describe.js';
import type { PathSegment } from '../../common/path.js';
import { suggest } from '../../common/suggest.js';
import { isTemplateString } from '../interpolate.js';
import { MAX_PROBLEMS_COLLECTED, limitReason } from '../bounds.js';
import { ACTION_KEYS } from '../steps/registry.js';
import type { SchemaProblem } from './problem.js';
import { STEP_COMMON_KEYS, didYouMean, showShort } from './vocabulary.js';

export type AnySchema = z.core.$ZodType;
type Def = { type: string; [k: string]: unknown };
const defOf = (s: AnySchema): Def => (s as unknown as { _zod: { def: Def } })._zod.def;

/** The schema and its wrappers (optional, nullable, pipe input…), outermost first. */
function layers(s: AnySchema): AnySchema[] {
  const out: AnySchema[] = [s];
  for (;;) {
    const d = defOf(out[out.length - 1]!);
    const inner = (d.innerType ?? (d.type === 'pipe' ? d.in : undefined)) as AnySchema | undefined;
    if (!inner) return out;
    out.push(inner);
  }
}

function childSchema(s: AnySchema, seg: PathSegment): AnySchema | undefined {
  const core = layers(s).at(-1)!;
  const d = defOf(core);
  if (d.type === 'object') return (d.shape as Record<string, AnySchema>)[String(seg)];
  if (d.type === 'array') return typeof seg === 'number' ? (d.element as AnySchema) : undefined;
  if (d.type === 'record') return d.valueType as AnySchema;
  if (d.type === 'union') {
    for (const o of d.options as AnySchema[]) {
      const c = childSchema(o, seg);
      if (c) return c;
    }
  }
  return undefined;
}

export function schemaAtIn(path: readonly PathSegment[], root: AnySchema): AnySchema | undefined {
  let s: AnySchema | undefined = root;
  for (const seg of path) {
    if (!s) return undefined;
    s = childSchema(s, seg);
  }
  return s;
}

export function describeSchema(s: AnySchema): string {
  for (const l of layers(s)) {
    const desc = (l as unknown as { description?: string }).description;
    if (desc) return desc;
  }
  const core = layers(s).at(-1)!;
  const d = defOf(core);
  switch (d.type) {
    case 'string':
      return 'a string';
    case 'number':
      return 'a number';
    case 'boolean':
      return 'true or false';
    case 'enum':
      return `one of: ${Object.values(d.entries as Record<string, string>).join(', ')}`;
    case 'object':
      return `a mapping with keys: ${Object.keys(d.shape as object).join(', ')}`;
    case 'array':
      return 'a list';
    case 'record':
      return 'a mapping';
    default:
      return 'a value of another shape';
  }
}

function expectedAt(path: readonly PathSegment[], root: AnySchema): string | undefined {
  const s = schemaAtIn(path, root);
  return s ? describeSchema(s) : undefined;
}

function keysAt(path: readonly PathSegment[], root: AnySchema): string[] {
  const s = schemaAtIn(path, root);
  if (!s) return [];
  const d = defOf(layers(s).at(-1)!);
  return d.type === 'object' ? Object.keys(d.shape as object) : [];
}

const TYPE_WORDS: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'a whole number',
  bigint: 'a whole number',
  boolean: 'true or false',
  object: 'a mapping',
  array: 'a list',
  null: 'nothing',
  record: 'a mapping',
};

function isStepPath(path: readonly PathSegment[]): boolean {
  return path.length === 2 && path[0] === 'steps' && typeof path[1] === 'number';
}

function keyLabel(path: readonly PathSegment[]): string {
  const last = path.at(-1);
  return typeof last === 'number' ? `item [${last}]` : `"${String(last)}"`;
}

function unknownKeyProblem(objPath: PathSegment[], key: string, root: AnySchema): SchemaProblem {
  const allowed = keysAt(objPath, root);
  const s = suggest(key, allowed);
  let message = `unknown key "${key}"${didYouMean(s)}`;
  let expected = allowed.length ? `one of: ${allowed.join(', ')}` : undefined;
  if (isStepPath(objPath)) {
    expected = `one action (${ACTION_KEYS.join(', ')}) and optionally ${STEP_COMMON_KEYS.join(', ')}`;
    if (!s && /^[a-z_]+$/.test(key)) message += `; to call another RPC method write call: {method: ${key}}`;
  } else if (objPath.length === 0) {
    expected = `the keys ${allowed.join(', ')}`;
  }
  return { path: [...objPath, key], at: 'key', message, ...(expected ? { expected } : {}) };
}

/** What is wrong with a value of another type than the schema's. */
function wrongType(iss: z.core.$ZodIssueInvalidType, input: unknown, path: PathSegment[]): string {
  const want = TYPE_WORDS[iss.expected] ?? `a ${iss.expected}`;
  const why = typeof input === 'bigint' ? limitReason(path) : undefined; // a whole number too large for a number: no maximum check ran
  if (why) return `${String(input)} is far too large (${why})`;
  const hint =
    iss.expected === 'string' && (typeof input === 'number' || typeof input === 'bigint' || typeof input === 'boolean')
      ? ` (quote it: "${String(input)}")`
      : '';
  return `expected ${want}, got ${describeValue(input)}${hint}`;
}

/** What is wrong with a list, string or number below its minimum or above its maximum. */
function outOfBounds(
  iss: z.core.$ZodIssueTooSmall | z.core.$ZodIssueTooBig,
  input: unknown,
  path: PathSegment[],
): string {
  if (iss.code === 'too_small') {
    const min = String(iss.minimum);
    if (iss.origin === 'array')
      return min === '1' ? 'the list is empty (at least one item is needed)' : `the list needs at least ${min} items`;
    if (iss.origin === 'string') return 'must not be empty';
    return `must be ${iss.inclusive ? 'at least' : 'more than'} ${min}, got ${showShort(input)}`;
  }
  const max = String(iss.maximum);
  if (iss.origin === 'array') return `has more than ${max} ${max === '1' ? 'item' : 'items'}`;
  if (iss.origin === 'string') return `is longer than ${max} characters`;
  const why = limitReason(path);
  return `must be ${iss.inclusive ? 'at most' : 'less than'} ${max}, got ${showShort(input)}${why ? ` (${why})` : ''}`;
}

/** What one zod issue means for the user, located by path (`root` is the schema of the whole document). */
export function problemsFromIssue(
  iss: z.core.$ZodIssue,
  base: readonly PathSegment[],
  root: AnySchema,
): SchemaProblem[] {
  const path = [...base, ...(iss.path as PathSegment[])];
  const input = (iss as { input?: unknown }).input;
  const expected = expectedAt(path, root);
  const withExpected = (p: Omit<SchemaProblem, 'expected'>, exp = expected): SchemaProblem =>
    exp ? { ...p, expected: exp } : p;
  if ((iss.code === 'invalid_type' || iss.code === 'invalid_union') && isTemplateString(input)) {
    return [
      withExpected({
        path,
        at: 'value',
        message: `a "\${…}" placeholder cannot be used here: the value must be written out (it is needed before the steps run)`,
      }),
    ];
  }
  switch (iss.code) {
    case 'custom': {
      const params = (iss.params ?? {}) as { missing?: boolean; expected?: string; at?: 'key' | 'value' };
      if (params.missing)
        return [
          withExpected({ path, at: 'parent', message: `missing ${keyLabel(path)}` }, params.expected ?? expected),
        ];
      return [withExpected({ path, at: params.at ?? 'value', message: iss.message }, params.expected ?? expected)];
    }
    case 'invalid_type':
      if (input === undefined) return [withExpected({ path, at: 'parent', message: `missing ${keyLabel(path)}` })];
      return [withExpected({ path, at: 'value', message: wrongType(iss, input, path) })];
    case 'unrecognized_keys':
      return iss.keys.slice(0, MAX_PROBLEMS_COLLECTED).map((k) => unknownKeyProblem(path, k, root));
    case 'too_small':
    case 'too_big':
      return [withExpected({ path, at: 'value', message: outOfBounds(iss, input, path) })];
    case 'invalid_value': {
      const values = iss.values.map((v) => String(v));
      const s = typeof input === 'string' ? suggest(input, values) : undefined;
      return [
        withExpected(
          { path, at: 'value', message: `${showShort(input)} is not one of: ${values.join(', ')}${didYouMean(s)}` },
          `one of: ${values.join(', ')}`,
        ),
      ];
    }
    case 'invalid_union': {
      // Keep the branches whose own type matched (no type error at the union itself).
      const fitting = iss.errors.filter(
        (errs) =>
          errs.length > 0 &&
          !errs.some((e) => e.path.length === 0 && (e.code === 'invalid_type' || e.code === 'invalid_union')),
      );
      if (fitting.length === 1) return fitting[0]!.flatMap((e) => problemsFromIssue(e, path, root));
      return [withExpected({ path, at: 'value', message: `${describeValue(input)} does not fit here` })];
    }
    default:
      return [withExpected({ path, at: 'value', message: iss.message })];
  }
}
