// The shape of a run record (registry.ts), checked on every read: a record saltnet did not write as
// it is (an older saltnet's, a half-edited or crafted one) is reported and never acted upon — no pid
// of it is signalled and no folder of it is removed.
import { isAbsolute } from 'node:path';
import { z } from 'zod';

const RUN_ID = /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/;

const pid = z
  .number()
  .int()
  .min(2)
  .max(2 ** 22);

/** What identity.ts records to know a process again. */
export const IDENTITY = z.object({
  startTime: z.string().min(1).max(100),
  exe: z.string().min(1).max(4096),
  argc: z.number().int().min(0).max(100_000),
  argsHash: z.string().regex(/^[0-9a-f]{64}$/, 'expected a sha256 in lowercase hex'),
});

export const RUN_PROCESS = IDENTITY.extend({
  name: z.string().min(1).max(200),
  pid,
  /** Shell-quoted, secrets redacted: for people (status, logs), never compared. */
  commandLine: z.string().max(100_000),
}).strict();

export const RUN_RECORD = z
  .object({
    runId: z.string().regex(RUN_ID).max(200),
    ownerPid: pid,
    owner: IDENTITY.strict(),
    startedAt: z.iso.datetime(),
    workdir: z.string().min(1).max(4096).refine(isAbsolute, 'expected an absolute path'),
    processes: z.array(RUN_PROCESS).max(1000),
    /** Endpoints etc. for `saltnet status`. */
    info: z.record(z.string(), z.unknown()).optional(),
    /** The run created `workdir` as a temporary folder (no --workdir): reaping the run removes it (see workdir.ts). */
    tempWorkdir: z.boolean().optional(),
    /**
     * Keep the temporary workdir when the run is reaped: a program crashed or the start failed, and its logs are the
     * evidence.
     */
    keepWorkdir: z.boolean().optional(),
  })
  .strict();

/** The first problem of a record that does not parse, in words: `processes.0.startTime: …`. */
export function recordProblem(err: z.ZodError): string {
  const i = err.issues[0];
  if (!i) return 'not a run record';
  const where = i.path.map(String).join('.') || '(record)';
  const more = err.issues.length > 1 ? ` (and ${err.issues.length - 1} more)` : '';
  return `${where}: ${i.message}${more}`;
}
