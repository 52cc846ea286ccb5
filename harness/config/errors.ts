// One error type for every config problem: a bad file, a bad environment variable, a bad flag, two
// config files in one folder. Each problem names where it is (file:line:col, `env SALTNET_X`,
// `flag --x`), the key and what was expected.

export interface ConfigProblem {
  /** A file path, `env SALTNET_X` or `flag --x`. */
  where: string;
  line?: number;
  col?: number;
  /** The key path (`run.workers`), `(file)` for the file as a whole, `(yaml)` for syntax. */
  path: string;
  message: string;
  expected?: string;
}

export function formatProblem(p: ConfigProblem): string {
  const at = p.line !== undefined ? `${p.where}:${p.line}:${p.col ?? 1}` : p.where;
  // Value problems already say "expected …, got …"; repeat `expected` only where the message does not.
  const expected = p.expected && !p.message.includes(p.expected) ? ` (expected ${p.expected})` : '';
  return `${at}: ${p.path}: ${p.message}${expected}`;
}

export class ConfigError extends Error {
  constructor(readonly problems: ConfigProblem[]) {
    super(problems.map(formatProblem).join('\n'));
    this.name = 'ConfigError';
  }
}
