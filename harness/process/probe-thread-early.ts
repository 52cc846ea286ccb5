// Where a launcher leaves the readiness probes' thread it started ahead of its program's bundle (cli/main.ts), for
// probes.ts to take over: the launcher and the bundle hold separate copies of every module, so it goes through
// globalThis. Both start it with the same options. Node built-ins only, as the launchers import it.

/** The key of the early thread (a Worker) on globalThis. */
export const EARLY_PROBE_THREAD = Symbol.for('saltnet.probe-thread');

/** The thread runs wait-on alone: none of the process's node flags (an --input-type, a loader) apply to it. */
export const PROBE_THREAD_OPTIONS = { execArgv: [] };
