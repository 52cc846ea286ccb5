// Short descriptions of values for error messages.
import { isPlainObject } from './plain-object.js';

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

/** The longest text an error message echoes whole (see clip). */
export const CLIP_CHARS = 100;

/**
 * `text` quoted for an error message, cut to `max` characters with an ellipsis and its length when longer:
 * `"SC1Tabc…" (60000 characters)`. A message that echoes what it was given stays readable whatever it was given.
 */
export function clip(text: string, max = CLIP_CHARS): string {
  if (text.length <= max) return JSON.stringify(text);
  return `${JSON.stringify(`${text.slice(0, max)}…`)} (${text.length} characters)`;
}

/** `n` and the noun, plural unless n is 1: counted(1, 'link') is "1 link", counted(3, 'link') "3 links". */
export const counted = (n: number, noun: string, plural = `${noun}s`): string => `${n} ${n === 1 ? noun : plural}`;
