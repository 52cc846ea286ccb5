// Which file runs a program saltnet starts (the CLI, the reaper watchdog): the build bundles each into one file
// beside its compiled module (scripts/bundle.ts), which loads in about half the CPU time of the hundreds of modules
// tsc writes. A bundle older than the last tsc emit (dist/.tsbuildinfo: a `tsc` run alone, as in `tsc --watch`) is
// stale: the modules run instead. Node built-ins only: the launchers import this before anything else.
import { statSync } from 'node:fs';
import { join, sep } from 'node:path';

const mtime = (file: string): number | undefined => {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return undefined;
  }
};

/** `x.bundle.js` beside the module `x.js`, where the build wrote it and no tsc emit came after; else `x.js`. */
export function programFile(modulePath: string): string {
  const bundle = modulePath.replace(/\.js$/, '.bundle.js');
  const bundled = mtime(bundle);
  if (bundled === undefined || bundle === modulePath) return modulePath;
  const at = modulePath.lastIndexOf(`${sep}dist${sep}`);
  // A package installed from the registry has no .tsbuildinfo (and npm gives every file one mtime).
  const emitted = at < 0 ? undefined : mtime(join(modulePath.slice(0, at + 5), '.tsbuildinfo'));
  return emitted === undefined || bundled >= emitted ? bundle : modulePath;
}
