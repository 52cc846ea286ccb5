#!/usr/bin/env node
// The `saltnet` command: runs saltnet.js, or the bundle of it the build writes beside it (half the start-up CPU).
// A command that starts programs waits on their readiness probes: their thread (process/probe-thread.ts, wait-on)
// starts first, and loads while the command's own bundle does.
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { programFile } from '../common/bundle.js';
import { EARLY_PROBE_THREAD } from '../process/probe-thread-early.js';

const STARTS_PROGRAMS = new Set(['up', 'run', 'fuzz', 'repro', 'record', 'cache']);

if (STARTS_PROGRAMS.has(process.argv[2] ?? '')) {
  const file = programFile(fileURLToPath(new URL('../process/probe-thread.js', import.meta.url)));
  // As probes.ts starts it: none of the command's node flags.
  const thread = new Worker(file, { execArgv: [] });
  // Until probes.ts takes it over: a thread that fails is started again there.
  thread.on('error', () => undefined);
  thread.unref();
  Object.assign(globalThis, { [EARLY_PROBE_THREAD]: thread });
}

await import(pathToFileURL(programFile(fileURLToPath(new URL('./saltnet.js', import.meta.url)))).href);
