import { createHash } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  buildMetadata,
  loadMetadataFile,
  metadataHex,
  metadataJson,
  sha256Hex,
  startMetadataServer,
} from '../../harness/scenario/metadata.js';

const sha = (b: Uint8Array): string => createHash('sha256').update(b).digest('hex');

async function fetchBytes(
  url: string,
  init?: RequestInit,
): Promise<{ status: number; headers: Headers; bytes: Buffer }> {
  const res = await fetch(url, init);
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}

describe('buildMetadata', () => {
  it('compact JSON, keys in the order given, UTF-8, no trailing newline, deterministic', () => {
    const b = buildMetadata({
      name: 'Rich',
      description: 'Grüße 🚀 "quoted"\n',
      decimals: 8,
      tags: ['a', 'b'],
      nested: { z: 1, a: null, skip: undefined },
      on: true,
    });
    expect(b.toString('utf8')).toBe(
      '{"name":"Rich","description":"Grüße 🚀 \\"quoted\\"\\n","decimals":8,"tags":["a","b"],"nested":{"z":1,"a":null},"on":true}',
    );
    expect(b.at(-1)).toBe('}'.charCodeAt(0));
    expect(buildMetadata({ b: 1, a: 2 }).toString()).toBe('{"b":1,"a":2}');
    expect(buildMetadata({ name: 'x' }).equals(buildMetadata({ name: 'x' }))).toBe(true);
    expect(JSON.parse(b.toString('utf8')).description).toBe('Grüße 🚀 "quoted"\n');
  });

  it('bigints exactly; refuses values with no faithful JSON form', () => {
    expect(buildMetadata({ supply: 18446744073709551615n }).toString()).toBe('{"supply":18446744073709551615}');
    expect(() => buildMetadata({ x: NaN })).toThrow(/x: NaN/);
    expect(() => buildMetadata({ x: [undefined] })).toThrow(/x\[0\]/);
    expect(() => buildMetadata({ f: () => 1 })).toThrow(/function/);
    const cyc: Record<string, unknown> = {};
    cyc.self = cyc;
    expect(() => buildMetadata({ cyc })).toThrow(/refers back/);
  });
});

describe('loadMetadataFile', () => {
  it('returns the bytes exactly as on disk', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'saltnet-meta-'));
    try {
      const bytes = Buffer.concat([
        Buffer.from('\ufeff{ "name" : "Ünï",\r\n  "x": 1 }\n\n', 'utf8'),
        Buffer.from([0xff]),
      ]);
      const f = path.join(dir, 'rich.json');
      fs.writeFileSync(f, bytes);
      expect(loadMetadataFile(f).equals(bytes)).toBe(true);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('metadataHex', () => {
  it('is the hex of the JSON text the wallet builds from name, size, hash, url', () => {
    const hash = 'ab'.repeat(32);
    const fields = { name: 'Demo', size: 123, hash, url: 'http://127.0.0.1:1/rich.json' };
    const text = `{"name":"Demo","size":123,"hash":"${hash}","url":"http://127.0.0.1:1/rich.json"}`;
    expect(metadataJson(fields)).toBe(text);
    expect(metadataHex(fields)).toBe(Buffer.from(text, 'utf8').toString('hex'));
    expect(metadataHex(fields)).toMatch(/^[0-9a-f]+$/);
    expect(Buffer.from(metadataHex(fields), 'hex').toString('utf8')).toBe(text);
    // the server's defaults
    expect(metadataJson({})).toBe('{"name":"","size":0,"hash":"","url":""}');
    // no escaping, like the server: a quote makes invalid JSON
    expect(() => JSON.parse(metadataJson({ name: 'a"b' }))).toThrow();
    expect(metadataJson({ name: 'é', size: 18446744073709551615n })).toBe(
      '{"name":"é","size":18446744073709551615,"hash":"","url":""}',
    );
  });
});

describe('metadata server', () => {
  it('serves the bytes exactly, with their sha256 and size', async () => {
    const server = await startMetadataServer();
    try {
      const body = buildMetadata({ name: 'Rich', description: 'ünïcødé ✓ 🚀', supply: 1000 });
      const hosted = server.host('rich', body);
      expect(hosted.url).toBe(`http://127.0.0.1:${server.port}/rich.json`);
      expect(hosted.sha256).toMatch(/^[0-9a-f]{64}$/);

      const res = await fetchBytes(hosted.url);
      expect(res.status).toBe(200);
      expect(res.bytes.equals(body)).toBe(true);
      expect(hosted.sha256).toBe(sha(res.bytes));
      expect(hosted.size).toBe(res.bytes.length);
      expect(hosted.size).toBeGreaterThan('ünïcødé ✓ 🚀'.length); // bytes, not characters
      expect(res.headers.get('content-type')).toBe('application/json');
      expect(res.headers.get('content-length')).toBe(String(body.length));
      expect(sha256Hex(body)).toBe(hosted.sha256);
    } finally {
      await server.close();
    }
  });

  it('two blobs at once; bytes copied at host time; content type; HEAD; 404', async () => {
    const server = await startMetadataServer();
    try {
      const a = Buffer.from('{"a":1}');
      const b = Buffer.from('not json at all \x00\xff', 'latin1');
      const ha = server.host('a', a);
      const hb = server.host('b-2.x', b, 'text/plain');
      a[2] = 'z'.charCodeAt(0); // changing the caller's buffer changes nothing served
      const [ra, rb] = await Promise.all([fetchBytes(ha.url), fetchBytes(hb.url)]);
      expect(ra.bytes.toString()).toBe('{"a":1}');
      expect(rb.bytes.equals(b)).toBe(true);
      expect(sha(ra.bytes)).toBe(ha.sha256);
      expect(sha(rb.bytes)).toBe(hb.sha256);
      expect(ha.sha256).not.toBe(hb.sha256);
      expect(rb.headers.get('content-type')).toBe('text/plain');
      const head = await fetch(ha.url, { method: 'HEAD' });
      expect(head.status).toBe(200);
      expect(head.headers.get('content-length')).toBe('7');
      expect((await fetch(`${server.origin}/nope.json`)).status).toBe(404);
      expect((await fetch(ha.url, { method: 'POST', body: 'x' })).status).toBe(405);
      expect(server.unhost('a')).toBe(true);
      expect((await fetch(ha.url)).status).toBe(404);
      // a name that needs encoding
      const hs = server.host('with space', Buffer.from('{}'));
      expect(hs.url).toBe(`${server.origin}/with%20space.json`);
      expect((await fetchBytes(hs.url)).bytes.toString()).toBe('{}');
      expect(() => server.host('a/b', a)).toThrow(/without '\/'/);
    } finally {
      await server.close();
    }
  });

  it('binds 127.0.0.1 only, and close frees the port', async () => {
    const server = await startMetadataServer();
    const { port } = server;
    expect(server.origin).toBe(`http://127.0.0.1:${port}`);
    const hosted = server.host('x', Buffer.from('{}'));
    // a keep-alive connection is open when we close
    expect((await fetchBytes(hosted.url)).status).toBe(200);
    await server.close();
    await server.close(); // idempotent
    await expect(fetch(hosted.url)).rejects.toThrow();
    // the port can be bound again
    await new Promise<void>((resolve, reject) => {
      const s = net.createServer();
      s.once('error', reject);
      s.listen(port, '127.0.0.1', () => s.close(() => resolve()));
    });
    expect(() => server.host('y', Buffer.from('{}'))).toThrow(/closed/);
  });
});
