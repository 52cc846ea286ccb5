// A link's proxy (harness/network/proxy.ts): bytes pass while it is open, a cut closes what passes
// through it and refuses new connections, `drop` swallows bytes, a delay keeps their order and follows the link's
// delay of the moment.
import { createServer, connect, type Server, type Socket } from 'node:net';
import { once } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { LinkProxy } from '../../harness/network/proxy.js';

/** An echo server on a free port. */
async function echo(): Promise<{ server: Server; port: number }> {
  const server = createServer((s) => s.pipe(s));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const a = server.address();
  return { server, port: typeof a === 'object' && a ? a.port : 0 };
}

/** Connect through the proxy; resolves once connected. */
async function dial(port: number): Promise<Socket> {
  const s = connect({ port, host: '127.0.0.1' });
  await once(s, 'connect');
  return s;
}

/** The next bytes the socket reads, or 'closed' when it closes first. */
function next(s: Socket): Promise<string> {
  return new Promise((ok) => {
    s.once('data', (d: Buffer) => ok(d.toString()));
    s.once('close', () => ok('closed'));
  });
}

const opened: { close(): unknown }[] = [];
afterEach(async () => {
  for (const o of opened.splice(0)) await o.close();
});

describe('a link proxy', () => {
  it('passes bytes both ways while open', async () => {
    const e = await echo();
    const p = await LinkProxy.start({ target: () => e.port });
    opened.push(p, e.server);
    const s = await dial(p.port);
    s.write('hello');
    expect(await next(s)).toBe('hello');
    expect(p.connections).toBe(1);
    s.destroy();
  });

  it('a cut closes the connections through it and refuses new ones until it is open again', async () => {
    const e = await echo();
    const p = await LinkProxy.start({ target: () => e.port });
    opened.push(p, e.server);
    const s = await dial(p.port);
    const closed = next(s);
    p.set({ mode: 'cut' });
    expect(await closed).toBe('closed');
    const refused = await dial(p.port);
    expect(await next(refused)).toBe('closed');
    p.set({ mode: 'open' });
    const again = await dial(p.port);
    again.write('back');
    expect(await next(again)).toBe('back');
    again.destroy();
  });

  it('drop keeps the connection but swallows the bytes; leaving drop closes it', async () => {
    const e = await echo();
    const p = await LinkProxy.start({ target: () => e.port });
    opened.push(p, e.server);
    const s = await dial(p.port);
    p.set({ mode: 'drop' });
    const got: string[] = [];
    s.on('data', (d: Buffer) => got.push(d.toString()));
    s.write('lost');
    // An echo through an open link would come back; a marker through a second, open proxy proves time passed.
    const q = await LinkProxy.start({ target: () => e.port });
    opened.push(q);
    const m = await dial(q.port);
    m.write('marker');
    expect(await next(m)).toBe('marker');
    m.destroy();
    expect(p.connections).toBe(1);
    const closed = once(s, 'close');
    p.set({ mode: 'open' });
    await closed;
    expect(got).toEqual([]);
  });

  it('a delayed link keeps the order of what passes', async () => {
    const e = await echo();
    const p = await LinkProxy.start({ target: () => e.port });
    opened.push(p, e.server);
    const s = await dial(p.port);
    p.set({ delayMs: 20 });
    let text = '';
    s.on('data', (d: Buffer) => (text += d.toString()));
    for (const c of 'abcdef') s.write(c);
    while (text.length < 6) await new Promise((r) => setTimeout(r, 10));
    expect(text).toBe('abcdef');
    s.destroy();
  });

  it('lowering the delay releases at once, in order, what the link held under the old one', async () => {
    const e = await echo();
    const p = await LinkProxy.start({ target: () => e.port });
    opened.push(p, e.server);
    const s = await dial(p.port);
    // A delay far beyond the test's own timeout: only the change below can bring the bytes back in time.
    p.set({ delayMs: 600_000 });
    let text = '';
    s.on('data', (d: Buffer) => (text += d.toString()));
    for (const c of 'abc') s.write(c);
    await new Promise((r) => setTimeout(r, 50));
    expect(text).toBe('');
    p.set({ delayMs: 0 });
    s.write('d');
    while (text.length < 4) await new Promise((r) => setTimeout(r, 10));
    expect(text).toBe('abcd');
    expect(p.state).toEqual({ mode: 'open', delayMs: 0 });
    s.destroy();
  });

  it('a link put into drop throws away what its delay held', async () => {
    const e = await echo();
    const p = await LinkProxy.start({ target: () => e.port });
    opened.push(p, e.server);
    const s = await dial(p.port);
    p.set({ delayMs: 600_000 });
    const got: string[] = [];
    s.on('data', (d: Buffer) => got.push(d.toString()));
    s.write('held');
    await new Promise((r) => setTimeout(r, 50));
    p.set({ mode: 'drop', delayMs: 0 });
    const closed = once(s, 'close');
    p.set({ mode: 'open' });
    await closed;
    expect(got).toEqual([]);
  });

  it('a peer that is not running yet: the connection is closed', async () => {
    const p = await LinkProxy.start({ target: () => undefined });
    opened.push(p);
    const s = await dial(p.port);
    expect(await next(s)).toBe('closed');
  });
});
