// Secrets (wallet passwords, RPC logins, seeds) never reach a log file, an error message or a
// command line we print: every occurrence becomes '***'.

export const REDACTED = '***';

function escapeRegExp(s: string): string {
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
 * A function that replaces each secret (a key of `labels`) by its own label; longer secrets win over their substrings.
 */
export function makeLabelledRedactor(labels: ReadonlyMap<string, string>): (text: string) => string {
  const list = [...labels.keys()].filter((s) => s.length > 0).sort((a, b) => b.length - a.length);
  if (list.length === 0) return (text) => text;
  const re = new RegExp(list.map(escapeRegExp).join('|'), 'g');
  return (text) => text.replace(re, (m) => labels.get(m) ?? REDACTED);
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
