// Where a launcher leaves the readiness probes' thread it started ahead of its program's bundle (cli/main.ts), for
// probes.ts to take over: the launcher and the bundle hold separate copies of every module, so it goes through
// globalThis. Node built-ins only, as the launchers import it.

/** The key of the early thread (a Worker) on globalThis. */
export const EARLY_PROBE_THREAD = Symbol.for('saltnet.probe-thread');
