// The one check for a plain object: a mapping as YAML, JSON and object literals make one.

/**
 * Whether `v` is a plain object (`{…}`, or one made with `Object.create(null)`): not an array, not a typed array
 * (YAML's `!!binary`), not a Date, a Map or an instance of a class.
 */
export function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
}
