import { describe, expect, it } from 'vitest';
import {
  DIGEST_REALM,
  DigestNonceStore,
  createDigestChallenge,
  digestAuthorizationHeader,
  md5Hex,
  parseDigestAuthorization,
  parseDigestChallenges,
  verifyDigestAuthorization,
} from '../../harness/digest/digest.js';

// RFC 2617 §3.5
const RFC_CHALLENGE = `Digest
                 realm="testrealm@host.com",
                 qop="auth,auth-int",
                 nonce="dcd98b7102dd2f0e8b11d0f600bfb0c093",
                 opaque="5ccc069c403ebaf9f0171e9517f40e41"`;
const RFC_AUTHORIZATION = `Digest username="Mufasa",
                 realm="testrealm@host.com",
                 nonce="dcd98b7102dd2f0e8b11d0f600bfb0c093",
                 uri="/dir/index.html",
                 qop=auth,
                 nc=00000001,
                 cnonce="0a4f113b",
                 response="6629fae49393a05397450978507c4ef1",
                 opaque="5ccc069c403ebaf9f0171e9517f40e41"`;
const MUFASA = { username: 'Mufasa', password: 'Circle Of Life' };

const fixedStore = (...nonces: string[]): DigestNonceStore => {
  let i = 0;
  return new DigestNonceStore(() => nonces[i++] ?? `nonce${i}`);
};

describe('digest: RFC 2617 worked example', () => {
  it('client computes response 6629fae49393a05397450978507c4ef1', () => {
    const header = digestAuthorizationHeader({
      ...MUFASA,
      method: 'GET',
      uri: '/dir/index.html',
      wwwAuthenticate: RFC_CHALLENGE,
      nc: 1,
      cnonce: '0a4f113b',
    });
    expect(header).toContain('response="6629fae49393a05397450978507c4ef1"');
    expect(header).toContain('qop=auth,nc=00000001,cnonce="0a4f113b"');
    expect(header).toContain('opaque="5ccc069c403ebaf9f0171e9517f40e41"');
    expect(
      header.startsWith('Digest algorithm=MD5,nonce="dcd98b7102dd2f0e8b11d0f600bfb0c093",realm="testrealm@host.com"'),
    ).toBe(true);
  });

  it('server accepts the RFC Authorization header for that nonce', () => {
    const parsed = parseDigestAuthorization(RFC_AUTHORIZATION);
    expect(parsed).toMatchObject({
      username: 'Mufasa',
      nc: '00000001',
      qop: 'auth',
      uri: '/dir/index.html',
      response: '6629fae49393a05397450978507c4ef1',
    });
    const store = new DigestNonceStore();
    store.nonce = 'dcd98b7102dd2f0e8b11d0f600bfb0c093';
    expect(verifyDigestAuthorization(RFC_AUTHORIZATION, 'GET', MUFASA, store, 'testrealm@host.com')).toEqual({
      ok: true,
    });
  });

  it('server refuses the RFC header with another password or method', () => {
    const store = new DigestNonceStore();
    store.nonce = 'dcd98b7102dd2f0e8b11d0f600bfb0c093';
    const r = verifyDigestAuthorization(
      RFC_AUTHORIZATION,
      'GET',
      { username: 'Mufasa', password: 'x' },
      store,
      'testrealm@host.com',
    );
    expect(r.ok).toBe(false);
    expect(r.ok ? undefined : r.stale).toBe(false);
    store.nonce = 'dcd98b7102dd2f0e8b11d0f600bfb0c093';
    store.counter = 0;
    expect(verifyDigestAuthorization(RFC_AUTHORIZATION, 'POST', MUFASA, store, 'testrealm@host.com').ok).toBe(false);
  });
});

describe('digest: epee session rules', () => {
  const creds = { username: 'monero', password: 'c2VjcmV0' };

  it('challenges like epee: MD5 and MD5-sess, realm monero-rpc', () => {
    expect(createDigestChallenge(DIGEST_REALM, 'abc=', false)).toEqual([
      'Digest qop="auth",algorithm=MD5,realm="monero-rpc",nonce="abc=",stale=false',
      'Digest qop="auth",algorithm=MD5-sess,realm="monero-rpc",nonce="abc=",stale=false',
    ]);
    const store = fixedStore('N1');
    const r = verifyDigestAuthorization(undefined, 'POST', creds, store);
    expect(r).toEqual({ ok: false, stale: false, wwwAuthenticate: createDigestChallenge('monero-rpc', 'N1') });
    expect(store.nonce).toBe('N1');
    expect(store.counter).toBe(0);
  });

  it('accepts nc = 1, 2, 3 ... on one session and refuses replays as stale', () => {
    const store = fixedStore('N1', 'N2');
    const first = verifyDigestAuthorization(undefined, 'POST', creds, store);
    expect(first.ok).toBe(false);
    const www = first.ok ? [] : first.wwwAuthenticate;
    const auth = (nc: number): string =>
      digestAuthorizationHeader({ ...creds, method: 'POST', uri: '/json_rpc', wwwAuthenticate: www, nc });
    expect(verifyDigestAuthorization(auth(1), 'POST', creds, store)).toEqual({ ok: true });
    expect(verifyDigestAuthorization(auth(2), 'POST', creds, store)).toEqual({ ok: true });
    expect(verifyDigestAuthorization(auth(3), 'POST', creds, store)).toEqual({ ok: true });
    const replay = verifyDigestAuthorization(auth(3), 'POST', creds, store);
    expect(replay.ok).toBe(false);
    expect(replay.ok ? undefined : replay.stale).toBe(true);
    expect(replay.ok ? [] : replay.wwwAuthenticate[0]).toContain('stale=true');
    expect(store.nonce).toBe('N2');
    // the old nonce is gone
    expect(verifyDigestAuthorization(auth(1), 'POST', creds, store).ok).toBe(false);
  });

  it('supports MD5-sess and the RFC 2069 form (first request only)', () => {
    const store = fixedStore('N1', 'N2', 'N3');
    verifyDigestAuthorization(undefined, 'POST', creds, store);
    const sess = digestAuthorizationHeader({
      ...creds,
      method: 'POST',
      uri: '/json_rpc',
      wwwAuthenticate: createDigestChallenge(DIGEST_REALM, 'N1')[1] as string,
      nc: 1,
    });
    expect(sess).toContain('algorithm=MD5-sess');
    expect(verifyDigestAuthorization(sess, 'POST', creds, store)).toEqual({ ok: true });

    const store2 = fixedStore('M1', 'M2');
    verifyDigestAuthorization(undefined, 'GET', creds, store2);
    const ha1 = md5Hex(`${creds.username}:monero-rpc:${creds.password}`);
    const resp = md5Hex(`${ha1}:M1:${md5Hex('GET:/x')}`);
    const rfc2069 = `Digest username="monero", realm="monero-rpc", nonce="M1", uri="/x", response="${resp}"`;
    expect(verifyDigestAuthorization(rfc2069, 'GET', creds, store2)).toEqual({ ok: true });
    expect(verifyDigestAuthorization(rfc2069, 'GET', creds, store2).ok).toBe(false);
  });

  it('refuses wrong user, wrong password, malformed headers and other schemes', () => {
    const store = fixedStore('N1');
    verifyDigestAuthorization(undefined, 'POST', creds, store);
    const www = createDigestChallenge(DIGEST_REALM, 'N1');
    const wrongPw = digestAuthorizationHeader({
      username: 'monero',
      password: 'nope',
      method: 'POST',
      uri: '/json_rpc',
      wwwAuthenticate: www,
    });
    const wrongUser = digestAuthorizationHeader({
      username: 'other',
      password: creds.password,
      method: 'POST',
      uri: '/json_rpc',
      wwwAuthenticate: www,
    });
    for (const h of [
      wrongPw,
      wrongUser,
      'Basic bW9uZXJvOng=',
      'Digest',
      'Digest username="monero"',
      'Digest foo="bar"',
      `${wrongPw},`,
      '',
    ]) {
      const s = fixedStore('N1', 'N2');
      s.nonce = 'N1';
      const r = verifyDigestAuthorization(h, 'POST', creds, s);
      expect(r.ok, h).toBe(false);
      expect(r.ok ? undefined : r.stale, h).toBe(false);
    }
  });

  it('parses challenges joined into one header value (fetch Headers.get)', () => {
    const joined = createDigestChallenge(DIGEST_REALM, 'a+b/c==', true).join(', ');
    const cs = parseDigestChallenges(joined);
    expect(cs).toHaveLength(2);
    expect(cs[0]).toEqual({
      scheme: 'Digest',
      params: { qop: 'auth', algorithm: 'MD5', realm: 'monero-rpc', nonce: 'a+b/c==', stale: 'true' },
    });
    expect(cs[1]?.params.algorithm).toBe('MD5-sess');
    expect(parseDigestChallenges('Basic realm="x", Digest realm="y", nonce="", qop="auth"')).toEqual([
      { scheme: 'Basic', params: { realm: 'x' } },
      { scheme: 'Digest', params: { realm: 'y', nonce: '', qop: 'auth' } },
    ]);
  });
});
