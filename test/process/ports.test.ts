import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ProcessExitedError } from '../../harness/process/errors.js';
import { freePorts, isBindError, isPortFree, withFreshPorts } from '../../harness/process/ports.js';
import { waitUntilReady } from '../../harness/process/ready.js';
import { cleanup, fake, tempDir } from './helpers.js';

const servers: Server[] = [];
function occupy(port: number): Promise<Server> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(port, '127.0.0.1', () => (servers.push(s), resolve(s)));
  });
}

afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
  await cleanup();
});

describe('ports', () => {
  it('freePorts gives distinct free ports, never the same twice in a row', async () => {
    const a = await freePorts(8);
    const b = await freePorts(8);
    expect(new Set([...a, ...b]).size).toBe(16);
    for (const p of a) expect(await isPortFree(p)).toBe(true);
  });

  it('isPortFree is false for a bound port', async () => {
    const [port] = await freePorts(1);
    await occupy(port!);
    expect(await isPortFree(port!)).toBe(false);
  });

  it('isBindError recognises EADDRINUSE codes, messages and process tails', () => {
    expect(isBindError(Object.assign(new Error('listen'), { code: 'EADDRINUSE' }))).toBe(true);
    expect(isBindError(new Error('x', { cause: Object.assign(new Error('y'), { code: 'EADDRINUSE' }) }))).toBe(true);
    expect(isBindError(new Error('Failed to bind IPv4: Address already in use'))).toBe(true);
    expect(isBindError(new Error('wallet file not found'))).toBe(false);
  });

  it('withFreshPorts retries with new ports after a simulated EADDRINUSE', async () => {
    const seen: number[][] = [];
    const result = await withFreshPorts(3, async (ports) => {
      seen.push(ports);
      if (seen.length === 1)
        throw Object.assign(new Error('listen EADDRINUSE: address already in use 127.0.0.1:' + ports[0]), {
          code: 'EADDRINUSE',
        });
      return 'started';
    });
    expect(result).toBe('started');
    expect(seen).toHaveLength(2);
    expect(seen[1]).not.toEqual(seen[0]);
  });

  it('withFreshPorts retries when a real program loses the race for its port', async () => {
    const dir = tempDir();
    let attempts = 0;
    const port = await withFreshPorts(1, async ([p]) => {
      attempts++;
      if (attempts === 1) await occupy(p!); // someone else binds it between our check and the program's bind
      const proc = fake([`listen:${p}`, 'forever'], { logFile: join(dir, `try${attempts}.log`) });
      try {
        await waitUntilReady(proc, [{ kind: 'log', patterns: [/^listening on/] }], { timeoutMs: 5000 });
      } catch (err) {
        expect(err).toBeInstanceOf(ProcessExitedError);
        throw err;
      }
      await proc.stop();
      return p!;
    });
    expect(attempts).toBe(2);
    expect(port).toBeGreaterThan(0);
  });

  it('withFreshPorts does not retry other errors and gives up after `retries`', async () => {
    let n = 0;
    await expect(
      withFreshPorts(1, async () => {
        n++;
        throw new Error('bad config');
      }),
    ).rejects.toThrow('bad config');
    expect(n).toBe(1);
    n = 0;
    await expect(
      withFreshPorts(
        1,
        async () => {
          n++;
          throw Object.assign(new Error('in use'), { code: 'EADDRINUSE' });
        },
        { retries: 2 },
      ),
    ).rejects.toThrow('in use');
    expect(n).toBe(3);
    n = 0;
    await expect(
      withFreshPorts(
        1,
        async () => {
          n++;
          if (n < 2) throw new Error('custom bind failure');
          return n;
        },
        { isBindError: (e) => String(e).includes('custom') },
      ),
    ).resolves.toBe(2);
  });
});
