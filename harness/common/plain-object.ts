// The one check for a plain object: a mapping as YAML, JSON and object literals make one.

/**
 * Whether `v` is a plain object (`{…}`, or one made with `Object.create(null)`): not an array, not a typed array
 * (YAML's `!!binary`), not a Date, a Map or an instance of a class. An object literal of another realm (a test file
 * that vitest runs in a VM context) is one too: its prototype is that realm's Object.prototype.
 */
export function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Object.prototype.toString.call(v) !== '[object Object]') return false;
  const proto = Object.getPrototypeOf(v) as object | null;
  return proto === null || Object.getPrototypeOf(proto) === null;
}
