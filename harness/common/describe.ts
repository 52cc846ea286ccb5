// Short descriptions of values for error messages.

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Uint8Array);

/** A short description of a value for messages: `the number 5`, `the string "x"`, `a mapping`. */
export function describeValue(v: unknown): string {
  if (v === null || v === undefined) return 'nothing (an empty value)';
  if (typeof v === 'string') return `the string ${JSON.stringify(v.length > 60 ? `${v.slice(0, 60)}…` : v)}`;
  if (typeof v === 'number' || typeof v === 'bigint') return `the number ${String(v)}`;
  if (typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return 'a list';
  if (isPlainObject(v)) return 'a mapping';
  return typeof v;
}
