// Line input for the CLI's prompts: one line per prompt, from a TTY or a pipe, with EOF reported.
import { createInterface } from 'node:readline';

export interface LineInput {
  /** Print `prompt` (if any) and read one line; undefined at end of input. */
  ask(prompt?: string): Promise<string | undefined>;
  close(): void;
}

export function createLineInput(): LineInput {
  const rl = createInterface({ input: process.stdin, terminal: false });
  const it = rl[Symbol.asyncIterator]();
  let ended = false;
  return {
    async ask(prompt) {
      if (prompt !== undefined) process.stdout.write(prompt);
      if (ended) return undefined;
      const r = await it.next();
      if (r.done) {
        ended = true;
        return undefined;
      }
      return r.value;
    },
    close() {
      rl.close();
    },
  };
}
