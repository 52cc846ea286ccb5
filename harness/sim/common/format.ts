// Small formatting and address helpers shared by the simulated programs.

/** Atomic units as the real programs print money: `123.45678900` (8 decimals). */
export function formatMoney(atomic: bigint): string {
  const negative = atomic < 0n;
  const s = (negative ? -atomic : atomic).toString().padStart(9, '0');
  return `${negative ? '-' : ''}${s.slice(0, -8)}.${s.slice(-8)}`;
}

/** Loopback bind addresses need no `--confirm-external-bind`. */
export const isLoopback = (ip: string): boolean => ip === 'localhost' || ip.startsWith('127.') || ip === '::1';

/** The error log line for an exception that escaped a request handler. */
export const handlerErrorLine = (err: unknown, where: { path: string; method?: string }): string =>
  `Exception in ${where.method ?? where.path}: ${err instanceof Error ? err.message : String(err)}`;
