// `saltnet fund ADDR -- 5`, `saltnet automine interval -- 5`, `saltnet mine -- -5`: `--` ends the options, and what
// follows it is a positional however it looks. yargs leaves what follows `--` out of a command's positionals (it only
// counts them in `_`, after the positionals were filled and checked), so the line is rewritten before yargs sees it:
// for a command that takes positionals, the words after `--` that yargs reads as positionals anyway (no leading
// dash, or a negative number) go where the positionals stand, and the `--` goes. Anything else is left as typed:
// `record -- node app.js` keeps its `--` (record takes no positional; the command after it is its own).

/** A word yargs reads as a positional: no leading dash, or a negative number (`-5`, `-0.5`). */
const positionalLooking = (w: string): boolean => !w.startsWith('-') || /^-(\d+(\.\d+)?|\.\d+)$/.test(w);

/**
 * `args` with the positionals after `--` moved in front of it, when the command (the first of `commands` named in
 * `args`) declares positionals and every word after `--` reads as one; else `args` unchanged. They go right after the
 * last word before `--` that is not an option (a positional, or an option's value), so that an option before them,
 * such as `--asset salX`, keeps its value and does not take theirs.
 */
export function positionalsAfterDashDash(args: readonly string[], commands: ReadonlyMap<string, boolean>): string[] {
  const end = args.indexOf('--');
  if (end < 0) return [...args];
  const command = args.slice(0, end).find((w) => commands.has(w));
  const after = args.slice(end + 1);
  if (!command || !commands.get(command) || after.length === 0 || !after.every(positionalLooking)) return [...args];
  const before = args.slice(0, end);
  let at = before.length;
  while (at > 0 && before[at - 1]!.startsWith('-') && !positionalLooking(before[at - 1]!)) at--;
  return [...before.slice(0, at), ...after, ...before.slice(at)];
}
