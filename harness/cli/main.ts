#!/usr/bin/env node
// The `saltnet` command: runs saltnet.js, or the bundle of it the build writes beside it (half the start-up CPU).
// `saltnet up` waits on its programs' readiness probes: their thread (process/probe-thread.ts, wait-on) starts first,
// and loads while the command's own bundle does. Other commands start it when they start a testnet (warmProbes): a
// command refused at its input spends nothing on it.
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { programFile } from '../common/bundle.js';
import { EARLY_PROBE_THREAD, PROBE_THREAD_OPTIONS } from '../process/probe-thread-early.js';

if (process.argv[2] === 'up') {
  const file = programFile(fileURLToPath(new URL('../process/probe-thread.js', import.meta.url)));
  const thread = new Worker(file, PROBE_THREAD_OPTIONS);
  // Until probes.ts takes it over: a thread that fails is started again there.
  thread.on('error', () => undefined);
  thread.unref();
  Object.assign(globalThis, { [EARLY_PROBE_THREAD]: thread });
}

await import(pathToFileURL(programFile(fileURLToPath(new URL('./saltnet.js', import.meta.url)))).href);
