// One writer per folder or file: a testnet's workdir, an output path. The lock is a small JSON file
// (mode 0600) naming its holder — pid, identity (identity.ts), run id, what it does, since when —
// so that a second writer is refused at once with the holder's name, and a lock whose holder died
// (or whose pid now belongs to another process) is taken over: the lock dies with its holder,
// however it died. Checking and taking happen under proper-lockfile's short-lived guard, so two
// writers that find the same dead holder cannot both take over.
import { randomBytes } from 'node:crypto';
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import lockfile from 'proper-lockfile';
import { z } from 'zod';
import { isSameProcess, selfIdentity } from './identity.js';
import { IDENTITY } from './run-record.js';

const HOLDER = z.object({
  pid: z.number().int().positive(),
  owner: IDENTITY,
  /** The run (testnet) of the holder, when it has one. */
  runId: z.string().max(200).optional(),
  /** What it does there: `saltnet up`, `saltnet run --output`. */
  what: z.string().max(500),
  since: z.string().max(100),
  /** Which take of the lock this is (a holder's release leaves a newer holder's lock alone). */
  nonce: z.string().max(100),
});

export type LockHolder = z.infer<typeof HOLDER>;

/** Refused: another live process holds the lock. */
export class LockedError extends Error {
  constructor(
    readonly target: string,
    readonly holder: LockHolder,
  ) {
    super(
      `${target} is in use by ${holder.what} (pid ${holder.pid}${holder.runId ? `, run ${holder.runId}` : ''}, since ${holder.since}); ` +
        `one writer at a time: stop it first (\`saltnet down${holder.runId ? ` --run ${holder.runId}` : ''}\`), or use another`,
    );
    this.name = 'LockedError';
  }
}

/** The holder recorded in `file`, when the file is a valid lock and its holder is alive and the same process. */
export function liveHolder(file: string): LockHolder | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return undefined;
  }
  const h = HOLDER.safeParse(data);
  return h.success && isSameProcess(h.data.pid, h.data.owner) ? h.data : undefined;
}

export interface OwnerLock {
  /** Give the lock up (only when it is still this take's: a lock taken over meanwhile stays). */
  release(): void;
  /** Whether the lock file is still this take's (false once the folder was removed, or the lock taken over). */
  held(): boolean;
}

/**
 * Take the lock `file` for `target` (named in messages): refused with a LockedError naming the holder when a live
 * process holds it; a lock of a dead holder, or one that is not a valid lock, is replaced.
 */
export async function takeOwnerLock(
  file: string,
  target: string,
  o: { what: string; runId?: string },
): Promise<OwnerLock> {
  const guard = await lockfile.lock(file, {
    realpath: false,
    lockfilePath: `${file}.guard`,
    stale: 10_000,
    retries: { retries: 50, minTimeout: 20, maxTimeout: 200 },
    onCompromised: () => undefined,
  });
  const me: LockHolder = {
    pid: process.pid,
    owner: selfIdentity(),
    ...(o.runId ? { runId: o.runId } : {}),
    what: o.what,
    since: new Date().toISOString(),
    nonce: randomBytes(8).toString('hex'),
  };
  try {
    const holder = liveHolder(file);
    if (holder) throw new LockedError(target, holder);
    const tmp = `${file}.${process.pid}.${me.nonce}.tmp`;
    try {
      writeFileSync(tmp, `${JSON.stringify(me)}\n`, { mode: 0o600 });
      renameSync(tmp, file);
    } catch (err) {
      rmSync(tmp, { force: true });
      throw err;
    }
  } finally {
    await guard().catch(() => undefined);
  }
  const mine = (): boolean => {
    try {
      return (JSON.parse(readFileSync(file, 'utf8')) as { nonce?: unknown }).nonce === me.nonce;
    } catch {
      return false; // gone (the folder was removed), or not a lock any more
    }
  };
  return {
    release() {
      if (mine()) rmSync(file, { force: true });
    },
    held: mine,
  };
}
