// The commands of a shell example: continuation lines joined, comments and placeholders (`<run>`,
// `…`) kept out of the way, split at `&&`, `||`, `;`, `|` and `&`, with leading VAR=value words dropped.
import { parse } from 'shell-quote';

export interface Command {
  /** The example's line (1-based, within the block) the command starts on. */
  line: number;
  words: string[];
}

/** `<rpc port>`, `<run>`: a placeholder the reader fills in, made one plain word. */
const PLACEHOLDER = /<([A-Za-z][A-Za-z0-9 _.-]*)>/g;

/** `${{ matrix.shard }}` (a GitHub Actions expression): filled in before the shell sees the line. */
const EXPRESSION = /\$\{\{[^}]*\}\}/g;
/** `$(command)`: a command of its own, checked as one. */
const SUBSTITUTION = /\$\(([^()]*)\)/g;

export function commandsOf(text: string): Command[] {
  const out: Command[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const start = i;
    let line = lines[i]!;
    while (line.endsWith('\\') && i + 1 < lines.length) line = line.slice(0, -1) + ' ' + lines[++i]!;
    line = line.replace(EXPRESSION, 'EXPRESSION').replace(SUBSTITUTION, (_m, inner: string) => {
      for (const c of commandsOf(inner)) out.push({ line: start + 1, words: c.words });
      return 'SUBSTITUTED';
    });
    const tokens = parse(
      line.replace(PLACEHOLDER, (_m, w: string) => `PLACEHOLDER_${w.replace(/\W/g, '_')}`),
      (k) => `$${k}`,
    );
    let words: string[] = [];
    const flush = (): void => {
      while (words.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[0]!)) words.shift();
      if (words.length) out.push({ line: start + 1, words });
      words = [];
    };
    for (const t of tokens) {
      if (typeof t === 'string') words.push(t);
      else if ('comment' in t) break;
      else if ('op' in t && t.op === 'glob') words.push(t.pattern);
      else flush();
    }
    flush();
  }
  return out;
}

/** The arguments after `saltnet` (or `npx saltnet`), or undefined for another program. */
export function saltnetArgs(words: string[]): string[] | undefined {
  if (words[0] === 'saltnet') return words.slice(1);
  if (words[0] === 'npx' && words[1] === 'saltnet') return words.slice(2);
  return undefined;
}

/** A Dockerfile's instructions that run commands (RUN, CMD, ENTRYPOINT, HEALTHCHECK … CMD), as shell text each. */
export function dockerfileShell(text: string): Array<{ line: number; shell: string }> {
  const out: Array<{ line: number; shell: string }> = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const start = i;
    let line = lines[i]!;
    while (line.endsWith('\\') && i + 1 < lines.length) line = line.slice(0, -1) + ' ' + lines[++i]!;
    const m = /^\s*(RUN|CMD|ENTRYPOINT|HEALTHCHECK)\s+(.*)$/i.exec(line);
    if (!m) continue;
    let rest = m[2]!;
    if (m[1]!.toUpperCase() === 'HEALTHCHECK') {
      const cmd = /(?:^|\s)CMD\s+(.*)$/i.exec(rest);
      if (!cmd) continue; // HEALTHCHECK NONE
      rest = cmd[1]!;
    }
    // The exec form, a JSON array of words: as the shell line that runs the same.
    const exec = rest.trim().startsWith('[') ? (JSON.parse(rest) as string[]) : undefined;
    out.push({ line: start + 1, shell: exec ? exec.map((w) => `'${w.replace(/'/g, `'\\''`)}'`).join(' ') : rest });
  }
  return out;
}
