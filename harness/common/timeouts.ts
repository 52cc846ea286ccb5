// One global factor scales every deadline of the harness: slow CI machines, valgrind builds or a
// loaded laptop set it once (CLI --timeout-factor, env SALTNET_TIMEOUT_FACTOR) instead of every
// caller guessing its own margins. Poll intervals are not scaled, only deadlines and grace periods.

let factor: number | undefined;

function parseFactor(value: string, source: string): number {
  const f = Number(value);
  if (!Number.isFinite(f) || f <= 0)
    throw new RangeError(`${source} must be a positive number, got ${JSON.stringify(value)}`);
  return f;
}

/** Set the factor (> 0) that scaled() multiplies every deadline with. Overrides SALTNET_TIMEOUT_FACTOR. */
export function setTimeoutFactor(f: number): void {
  factor = parseFactor(String(f), 'the timeout factor');
}

/** The current factor: setTimeoutFactor()'s, else SALTNET_TIMEOUT_FACTOR's (read on first use), else 1. */
export function timeoutFactor(): number {
  if (factor === undefined) {
    const env = process.env['SALTNET_TIMEOUT_FACTOR'];
    factor = env === undefined || env.trim() === '' ? 1 : parseFactor(env.trim(), 'SALTNET_TIMEOUT_FACTOR');
  }
  return factor;
}

/** Forget the factor set by setTimeoutFactor(): the next use reads SALTNET_TIMEOUT_FACTOR again (for tests). */
export function resetTimeoutFactor(): void {
  factor = undefined;
}

/** `ms` multiplied by the timeout factor (rounded; Infinity stays Infinity). */
export function scaled(ms: number): number {
  if (!Number.isFinite(ms)) return ms;
  return Math.max(0, Math.round(ms * timeoutFactor()));
}
