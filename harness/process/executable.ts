// Why a program cannot be started, found before spawning it: no such file, a folder, not executable,
// not on PATH. (which finds executables; this also says what is wrong with the near misses.)
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join, resolve } from 'node:path';
import { ProcessStartError } from './errors.js';

export function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

export function executableError(
  name: string,
  command: string,
  cwd: string | undefined,
  env: NodeJS.ProcessEnv,
  redactFn: (s: string) => string,
): ProcessStartError | undefined {
  const check = (path: string): { code: string; reason: string } | undefined => {
    let st;
    try {
      st = statSync(path);
    } catch {
      return { code: 'ENOENT', reason: 'does not exist' };
    }
    if (st.isDirectory()) return { code: 'EACCES', reason: 'is a directory, not a program' };
    try {
      accessSync(path, constants.X_OK);
    } catch {
      return { code: 'EACCES', reason: 'is not executable (chmod +x?)' };
    }
    return undefined;
  };
  if (command.includes('/')) {
    const path = isAbsolute(command) ? command : resolve(cwd ?? process.cwd(), command);
    const bad = check(path);
    return bad ? new ProcessStartError({ processName: name, path: redactFn(path), ...bad }) : undefined;
  }
  const dirs = (env['PATH'] ?? '').split(delimiter).filter(Boolean);
  let firstBad: { path: string; code: string; reason: string } | undefined;
  for (const d of dirs) {
    const path = join(d, command);
    const bad = check(path);
    if (!bad) return undefined;
    if (bad.code !== 'ENOENT' && !firstBad) firstBad = { path, ...bad };
  }
  if (firstBad)
    return new ProcessStartError({
      processName: name,
      path: redactFn(firstBad.path),
      code: firstBad.code,
      reason: firstBad.reason,
    });
  return new ProcessStartError({
    processName: name,
    path: redactFn(command),
    code: 'ENOENT',
    reason: 'was not found in PATH',
  });
}
