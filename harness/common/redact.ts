// Secrets (wallet passwords, RPC logins, seeds) never reach a log file, an error message or a
// command line we print: every occurrence becomes '***'.

export const REDACTED = '***';

/** `s` as a regular expression that matches it literally. */
export function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A function that redacts `secrets` (empty strings are ignored; longer secrets win over their substrings). */
export function makeRedactor(secrets: readonly string[]): (text: string) => string {
  const list = [...new Set(secrets.filter((s) => typeof s === 'string' && s.length > 0))].sort(
    (a, b) => b.length - a.length,
  );
  if (list.length === 0) return (text) => text;
  const re = new RegExp(list.map(escapeRegExp).join('|'), 'g');
  return (text) => text.replace(re, REDACTED);
}

/**
 * Secrets at least this long are replaced wherever they appear; shorter ones only as whole words (never inside a
 * longer word: a secret `x` leaves `expected` alone), since a short value turns up in unrelated text by chance.
 */
export const ANYWHERE_FROM = 16;

const WORD_CHAR = /[A-Za-z0-9_]/;

/** The pattern of one secret: anywhere when long, else not touching a letter, digit or _ on either side. */
function secretPattern(secret: string): string {
  const body = escapeRegExp(secret);
  if (secret.length >= ANYWHERE_FROM) return body;
  const before = WORD_CHAR.test(secret[0] ?? '') ? '(?<![A-Za-z0-9_])' : '';
  const after = WORD_CHAR.test(secret.at(-1) ?? '') ? '(?![A-Za-z0-9_])' : '';
  return `${before}${body}${after}`;
}

/**
 * A function that replaces each secret (a key of `labels`) by its own label: a long one wherever it appears, a short
 * one as a whole word (ANYWHERE_FROM); longer secrets win over their substrings.
 */
export function makeLabelledRedactor(labels: ReadonlyMap<string, string>): (text: string) => string {
  const list = [...labels.keys()].filter((s) => s.length > 0).sort((a, b) => b.length - a.length);
  if (list.length === 0) return (text) => text;
  const re = new RegExp(list.map(secretPattern).join('|'), 'g');
  return (text) => text.replace(re, (m) => labels.get(m) ?? REDACTED);
}

/** A value quoted inside a sentence, as saltnet shows strings: "…" with JSON escapes. */
const QUOTED = /"(?:[^"\\\n]|\\.)*"/g;

/**
 * makeLabelledRedactor for saltnet's own sentences (a failure message, a step's default name, a path): a long secret
 * is replaced wherever it appears, a short one only inside a quoted value (`expected "x", got "y"`), so that a secret
 * such as `a` or `call` cannot change the words around the values.
 */
export function makeMessageRedactor(labels: ReadonlyMap<string, string>): (text: string) => string {
  const anywhere = makeLabelledRedactor(new Map([...labels].filter(([s]) => s.length >= ANYWHERE_FROM)));
  // All of them inside quotes: a label there (itself a secret's key, mapped to itself) is matched whole, so that a
  // short secret never changes a word of it.
  const quoted = makeLabelledRedactor(labels);
  return (text) => anywhere(text).replace(QUOTED, (q) => quoted(q));
}

/** `text` with every occurrence of every secret replaced by '***'. */
export function redact(text: string, secrets: readonly string[]): string {
  return makeRedactor(secrets)(text);
}

const SAFE = /^[A-Za-z0-9_\-+=/:.,@%^]+$/;

/** POSIX shell quoting of one word ('' for the empty string). */
export function shellQuote(word: string): string {
  if (word === '') return "''";
  if (SAFE.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * The command line as a shell would read it, for logs and error messages, with secrets redacted.
 * Each word is redacted before it is quoted, so `--password=hunter2` prints as `--password=***`
 * and a secret containing quotes or spaces is still found.
 */
export function formatCommandLine(cmd: string, args: readonly string[], secrets: readonly string[]): string {
  const list = [...new Set(secrets.filter((s) => s.length > 0))].sort((a, b) => b.length - a.length);
  const re = list.length ? new RegExp(list.map(escapeRegExp).join('|'), 'g') : undefined;
  const word = (w: string): string => {
    if (!re) return shellQuote(w);
    const pieces = w.split(re);
    if (pieces.length === 1) return shellQuote(w);
    return pieces.map((p) => (p === '' ? '' : shellQuote(p))).join(REDACTED);
  };
  // A secret spanning two words is still caught by the final pass.
  return redact([cmd, ...args].map(word).join(' '), list);
}
