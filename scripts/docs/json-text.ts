// Markdown from a JSON Schema node: types, defaults, descriptions, alternatives and field tables.
import { isPlainObject } from '../../harness/common/plain-object.js';
import { AMOUNT_FORMS } from '../../harness/coin/amounts.js';
import { assetPattern, NAME_RE } from '../../harness/scenario/schema.js';

export type Json = Record<string, unknown>;

export const obj = (v: unknown): Json => (isPlainObject(v) ? v : {});
export const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
export const strings = (v: unknown): string[] => list(v).filter((x): x is string => typeof x === 'string');
export const code = (s: string): string => (s.includes('`') ? `\`\` ${s} \`\`` : `\`${s}\``);

/**
 * Text for Markdown tables and paragraphs: outside code spans `<…>` would be read as HTML; `|` would
 * end a table cell anywhere (GFM wants `\\|` even inside code spans in a table).
 */
export function text(s: string): string {
  return s
    .replace(/\s*\n\s*/g, ' ')
    .split(/(`[^`]*`)/)
    .map((part) =>
      (part.startsWith('`') ? part : part.replace(/\\/g, '\\\\').replace(/</g, '&lt;')).replace(/\|/g, '\\|'),
    )
    .join('');
}

export function table(header: string[], rows: string[][]): string {
  return [
    `| ${header.join(' | ')} |`,
    `|${header.map(() => '---').join('|')}|`,
    ...rows.map((r) => `| ${r.join(' | ')} |`),
  ].join('\n');
}

export const fence = (lang: string, body: string): string => `\`\`\`${lang}\n${body.replace(/\n+$/, '')}\n\`\`\``;

/** The branches of an anyOf without the `null` one, and whether there was one. */
export function nonNull(node: Json): { branches: Json[]; nullable: boolean } {
  const any = list(node.anyOf).filter(isPlainObject);
  const branches = any.filter((b) => b.type !== 'null');
  return { branches, nullable: branches.length < any.length };
}

/** A node that is an object with an anyOf of itself and null is documented as the object. */
export function unwrap(node: Json): Json {
  const { branches, nullable } = nonNull(node);
  if (nullable && branches.length === 1)
    return { ...branches[0], description: node.description ?? branches[0]!.description };
  return node;
}

export function isAmount(node: Json): boolean {
  return typeof node.description === 'string' && node.description.startsWith(AMOUNT_FORMS);
}

const MAX_INT = Number.MAX_SAFE_INTEGER;

// ---- types, defaults, descriptions ----

export function keyKind(node: Json): string {
  const pattern = obj(node.propertyNames).pattern;
  if (pattern === assetPattern()) return 'asset';
  if (pattern === NAME_RE.source) return 'name';
  return 'key';
}

const atMost = (node: Json): string =>
  typeof node.maximum === 'number' && node.maximum < MAX_INT ? `, ≤ ${node.maximum} ([limits](#limits))` : '';

/** A short type for a schema node, with links to the sections that explain it. */
export function typeText(node: Json): string {
  if (typeof node.$ref === 'string') {
    const name = node.$ref.replace(/^#\/\$defs\//, '');
    return name === 'matcher' ? '[matcher](#expectations-and-matchers)' : name;
  }
  if (isAmount(node)) return '[amount](#amounts)';
  if ('const' in node) return code(JSON.stringify(node.const));
  if (Array.isArray(node.enum)) return `one of ${node.enum.map((v) => code(String(v))).join(', ')}`;
  if (Array.isArray(node.anyOf)) {
    const { branches, nullable } = nonNull(node);
    const parts = [...new Set(branches.map((b) => ('not' in b ? 'plain value' : typeText(b))))];
    return `${parts.join(' or ')}${nullable ? ' (may be empty)' : ''}`;
  }
  switch (node.type) {
    case 'string':
      return node.pattern === NAME_RE.source ? '[name](#names-assets-and-backends)' : 'string';
    case 'integer': {
      const min = typeof node.minimum === 'number' && node.minimum > -MAX_INT ? node.minimum : undefined;
      return `${min === undefined ? 'integer' : `integer ≥ ${min}`}${atMost(node)}`;
    }
    case 'number':
      return `${typeof node.exclusiveMinimum === 'number' ? `number > ${node.exclusiveMinimum}` : 'number'}${atMost(node)}`;
    case 'boolean':
      return 'boolean';
    case 'array': {
      const items = typeText(obj(node.items));
      return `${node.minItems === 1 ? 'non-empty ' : ''}list of ${items}`;
    }
    case 'object': {
      if (isPlainObject(node.properties)) return 'mapping';
      const addl = node.additionalProperties;
      if (isPlainObject(addl))
        return `mapping of ${keyKind(node)} → ${Object.keys(addl).length === 0 ? 'any value' : typeText(addl)}`;
      return 'mapping';
    }
    default:
      return 'any value';
  }
}

/** The default of a field: the JSON Schema `default`, else what its description says. */
export function defaultText(node: Json): string {
  if ('default' in node) return code(JSON.stringify(node.default));
  const d = typeof node.description === 'string' ? node.description : '';
  const inParens = /\(default:? ([^)]+)\)/.exec(d);
  if (inParens) return text(inParens[1]!);
  const before = /(\S+) \(default\)/.exec(d);
  if (before) return text(before[1]!);
  const trailing = /\bdefault: ([^;,)]+)$/.exec(d);
  if (trailing) return text(trailing[1]!);
  return '';
}

export function descriptionText(node: Json): string {
  const d = typeof node.description === 'string' ? node.description : '';
  if (isAmount(node))
    return d.slice(AMOUNT_FORMS.length).includes('${') ? 'an amount, or a `${…}` placeholder' : 'an amount';
  return text(d);
}

export function examplesText(node: Json): string {
  const ex = list(node.examples);
  return ex.length
    ? ` Examples: ${ex.map((e) => code(typeof e === 'string' ? e : JSON.stringify(e))).join(', ')}.`
    : '';
}

// ---- field tables ----

export interface Row {
  name: string;
  node: Json;
  required: string;
}

/** Keys named by the oneOf/anyOf alternatives of an object (`{required: [...]}` branches only). */
export function alternatives(node: Json): { kind: 'oneOf' | 'anyOf'; sets: string[][] } | undefined {
  for (const kind of ['oneOf', 'anyOf'] as const) {
    const branches = list(node[kind]).filter(isPlainObject);
    if (branches.length && branches.every((b) => Object.keys(b).length === 1 && Array.isArray(b.required))) {
      return { kind, sets: branches.map((b) => strings(b.required)) };
    }
  }
  return undefined;
}

export function alternativesNote(node: Json, prefix = ''): string | undefined {
  const alt = alternatives(node);
  if (!alt) return undefined;
  const sets = alt.sets.map((s) => s.map((k) => code(prefix + k)).join(' + '));
  return alt.kind === 'oneOf'
    ? `Give exactly one of: ${sets.join(', ')}.`
    : `Give at least one of: ${sets.join(', ')}.`;
}

/** Rows for the fields of an object, nested objects flattened (`destinations[].to`, `wallets.<name>.unlocked`). */
export function rows(node: Json, prefix = '', stop: readonly string[] = [], depth = 0): Row[] {
  const out: Row[] = [];
  const props = obj(node.properties);
  const required = new Set(strings(node.required));
  const alt = new Set((alternatives(node)?.sets ?? []).flat());
  for (const [key, raw] of Object.entries(props)) {
    const child = unwrap(obj(raw));
    const name = `${prefix}${key}`;
    out.push({ name, node: obj(raw), required: required.has(key) ? 'yes' : alt.has(key) ? 'see below' : 'no' });
    if (depth >= 3 || stop.includes(key)) continue;
    out.push(...nested(child, name, depth));
  }
  return out;
}

export function nested(child: Json, name: string, depth: number): Row[] {
  if (child.type === 'object' && isPlainObject(child.properties)) return rows(child, `${name}.`, [], depth + 1);
  if (child.type === 'array' && isPlainObject(child.items) && isPlainObject(child.items.properties))
    return rows(child.items, `${name}[].`, [], depth + 1);
  if (child.type === 'object' && isPlainObject(child.additionalProperties)) {
    const addl = unwrap(child.additionalProperties);
    if (addl.type === 'object' && isPlainObject(addl.properties))
      return rows(addl, `${name}.<${keyKind(child)}>.`, [], depth + 1);
  }
  return [];
}

/** A field whose value is another step kind's value: documented there. */
export interface Link {
  type: string;
  description: string;
  required?: string;
}

export function fieldTable(
  node: Json,
  opts: { stop?: readonly string[]; link?: (key: string, node: Json) => Link | undefined } = {},
): string {
  const stop = opts.stop ?? [];
  const all = rows(node, '', stop);
  const body = all.map((r) => {
    const link = opts.link?.(r.name, r.node);
    if (link) return [code(r.name), link.type, link.required ?? r.required, '', link.description];
    return [
      code(r.name),
      typeText(r.node),
      r.required,
      defaultText(r.node),
      descriptionText(r.node) + examplesText(r.node),
    ];
  });
  const notes: string[] = [];
  const own = alternativesNote(node);
  if (own) notes.push(own);
  for (const r of all) {
    if (opts.link?.(r.name, r.node) || stop.includes(r.name)) continue;
    const child = unwrap(r.node);
    const target = child.type === 'array' ? obj(child.items) : child;
    const note = alternativesNote(target, `${r.name}${child.type === 'array' ? '[]' : ''}.`);
    if (note && isPlainObject(target.properties))
      notes.push(`In ${code(r.name)}: ${note.charAt(0).toLowerCase()}${note.slice(1)}`);
  }
  return [table(['field', 'type', 'required', 'default', 'description'], body), ...notes].join('\n\n');
}
