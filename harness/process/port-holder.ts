// Who holds a TCP port: the process listening on it, from /proc/net/tcp{,6} and the socket links of
// /proc/<pid>/fd. Only to name it in a message (a program that must keep its port finds it taken);
// undefined where /proc does not say (another user's process, no /proc).
import { readFileSync, readdirSync, readlinkSync } from 'node:fs';

/** The inodes of the sockets listening on `port` (state 0A), from /proc/net/tcp and tcp6. */
function listeningInodes(port: number): Set<string> {
  const hex = port.toString(16).toUpperCase().padStart(4, '0');
  const out = new Set<string>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string;
    try {
      text = readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const f = line.trim().split(/\s+/);
      if (f[1]?.endsWith(`:${hex}`) && f[3] === '0A' && f[9]) out.add(f[9]);
    }
  }
  return out;
}

/** `pid 123 (nc -l 4000)` for the process listening on `port`, if /proc says. */
export function portHolder(port: number): string | undefined {
  const inodes = listeningInodes(port);
  if (inodes.size === 0) return undefined;
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((n) => /^\d+$/.test(n));
  } catch {
    return undefined;
  }
  for (const pid of pids) {
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      let link: string;
      try {
        link = readlinkSync(`/proc/${pid}/fd/${fd}`);
      } catch {
        continue;
      }
      const m = /^socket:\[(\d+)\]$/.exec(link);
      if (!m || !inodes.has(m[1]!)) continue;
      let cmd = '';
      try {
        cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ').slice(0, 200);
      } catch {
        /* gone meanwhile */
      }
      return `pid ${pid}${cmd ? ` (${cmd})` : ''}`;
    }
  }
  return undefined;
}
