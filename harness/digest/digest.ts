// HTTP Digest authentication (RFC 2617 / RFC 7616, MD5 and MD5-sess, qop="auth"), following
// epee's http_auth.cpp, which salvium-wallet-rpc uses for its RPC login:
//  * the server keeps one session per TCP connection: a nonce and a counter of requests that
//    carried an Authorization header since that nonce was issued;
//  * a request passes when the username matches, the response hash is right (computed with the
//    server's realm "monero-rpc" and the uri/nonce/cnonce/nc/qop the client sent), the nonce is
//    the session's current one, and nc equals the counter (without qop, RFC 2069 style, only the
//    first request after the challenge passes);
//  * anything else gets 401 with a fresh nonce and the counter reset, `stale=true` when the hash
//    was right but the nonce or nc was not; the challenge offers MD5 and MD5-sess.
// A client therefore sends nc=1, 2, 3, ... on one connection, and starts over (new challenge,
// nc=1) when it gets a 401 or moves to another connection.
import { createHash, randomBytes } from 'node:crypto';

/** The realm epee always uses (http_auth.cpp: auth_realm). */
export const DIGEST_REALM = 'monero-rpc';

export interface DigestCredentials {
  username: string;
  password: string;
}

export const md5Hex = (s: string): string => createHash('md5').update(s, 'utf8').digest('hex');

const newNonce = (): string => randomBytes(16).toString('base64');

/** Server-side state of one session (epee keeps one per connection). */
export class DigestNonceStore {
  /** The nonce of the last challenge, if any. */
  nonce: string | undefined = undefined;
  /** Requests with an Authorization header since that challenge. */
  counter = 0;

  constructor(private readonly generate: () => string = newNonce) {}

  /** Start over with a fresh nonce (what epee does before every 401). */
  renew(): string {
    this.counter = 0;
    this.nonce = this.generate();
    return this.nonce;
  }
}

/** The `WWW-Authenticate` header values of a 401, as epee sends them (MD5, then MD5-sess). */
export function createDigestChallenge(realm: string, nonce: string, stale = false): string[] {
  return ['MD5', 'MD5-sess'].map(
    (algorithm) =>
      `Digest qop="auth",algorithm=${algorithm},realm="${realm}",nonce="${nonce}",stale=${stale ? 'true' : 'false'}`,
  );
}

// ---------------------------------------------------------------------------------------------
// Header parsing

export interface DigestAuthorization {
  algorithm: string;
  cnonce: string;
  nc: string;
  nonce: string;
  opaque: string;
  qop: string;
  realm: string;
  response: string;
  stale: string;
  uri: string;
  username: string;
}

type FieldKind = 'token' | 'quoted' | 'nc' | 'response' | 'ignore';
const AUTH_FIELDS: Record<string, FieldKind> = {
  algorithm: 'token',
  cnonce: 'quoted',
  domain: 'ignore',
  nc: 'nc',
  nonce: 'quoted',
  opaque: 'quoted',
  qop: 'token',
  realm: 'quoted',
  response: 'response',
  stale: 'token',
  uri: 'quoted',
  username: 'quoted',
};

const isWs = (c: string | undefined): boolean =>
  c === ' ' || c === '\t' || c === '\r' || c === '\n' || c === '\v' || c === '\f';
const TOKEN_CHAR = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]$/;

/**
 * A quoted-string at `i`. Strict (epee's server): at least one character, `\"` kept as is.
 * Lenient (challenge parsing): may be empty, backslash escapes removed. Returns [content, next index].
 */
function quoted(s: string, i: number, lenient = false): [string, number] | undefined {
  if (s[i] !== '"') return undefined;
  let j = i + 1;
  let content = '';
  while (j < s.length && s[j] !== '"') {
    if (s[j] === '\\' && (lenient ? j + 1 < s.length : s[j + 1] === '"')) {
      content += lenient ? s[j + 1] : s.slice(j, j + 2);
      j += 2;
    } else {
      content += s[j];
      j++;
    }
  }
  if (j >= s.length || (!lenient && j === i + 1)) return undefined;
  return [content, j + 1];
}

function token(s: string, i: number, lenient = false): [string, number] | undefined {
  if (s[i] === '"') return quoted(s, i, lenient);
  let j = i;
  while (j < s.length && TOKEN_CHAR.test(s[j] as string)) j++;
  return j === i ? undefined : [s.slice(i, j), j];
}

/** Parse an `Authorization: Digest ...` value the way epee's server does; undefined if malformed. */
export function parseDigestAuthorization(header: string): DigestAuthorization | undefined {
  const s = header;
  let i = 0;
  const skipWs = (): void => {
    while (i < s.length && isWs(s[i])) i++;
  };
  skipWs();
  if (s.slice(i, i + 6).toLowerCase() !== 'digest') return undefined;
  i += 6;
  skipWs();
  const out: DigestAuthorization = {
    algorithm: '',
    cnonce: '',
    nc: '',
    nonce: '',
    opaque: '',
    qop: '',
    realm: '',
    response: '',
    stale: '',
    uri: '',
    username: '',
  };
  for (;;) {
    const nameMatch = /^[A-Za-z]+/.exec(s.slice(i));
    if (!nameMatch) return undefined;
    const name = nameMatch[0].toLowerCase();
    const kind = AUTH_FIELDS[name];
    if (!kind || !Object.prototype.hasOwnProperty.call(AUTH_FIELDS, name)) return undefined;
    i += nameMatch[0].length;
    skipWs();
    if (s[i] !== '=') return undefined;
    i++;
    skipWs();
    let value: [string, number] | undefined;
    if (kind === 'nc') {
      const m = /^[0-9A-Fa-f]{8}/.exec(s.slice(i));
      value = m ? [m[0], i + 8] : undefined;
    } else if (kind === 'response') {
      const m = /^"((?:[0-9A-Fa-f]{2})+)"/.exec(s.slice(i));
      value = m ? [m[1] as string, i + m[0].length] : undefined;
    } else if (kind === 'token') {
      value = token(s, i);
    } else {
      value = quoted(s, i);
    }
    if (!value) return undefined;
    if (kind !== 'ignore') out[name as keyof DigestAuthorization] = value[0];
    i = value[1];
    skipWs();
    if (s[i] !== ',') break;
    i++;
    skipWs();
  }
  return i === s.length ? out : undefined;
}

export interface DigestChallenge {
  scheme: string;
  params: Record<string, string>;
}

/**
 * Parse `WWW-Authenticate` challenges. Accepts several header values, or one value in which
 * several challenges were joined with ", " (as fetch's `Headers.get` does).
 */
export function parseDigestChallenges(header: string | readonly string[]): DigestChallenge[] {
  const values = typeof header === 'string' ? [header] : header;
  const out: DigestChallenge[] = [];
  for (const s of values) {
    let i = 0;
    let current: DigestChallenge | undefined;
    while (i < s.length) {
      while (i < s.length && (isWs(s[i]) || s[i] === ',')) i++;
      const t = token(s, i, true);
      if (!t) {
        i++;
        continue;
      }
      let j = t[1];
      while (j < s.length && isWs(s[j])) j++;
      if (s[j] === '=' && current) {
        j++;
        while (j < s.length && isWs(s[j])) j++;
        const v = token(s, j, true);
        current.params[t[0].toLowerCase()] = v ? v[0] : '';
        i = v ? v[1] : j;
      } else {
        current = { scheme: t[0], params: {} };
        out.push(current);
        i = t[1];
      }
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Server side

export type DigestVerification = { ok: true } | { ok: false; stale: boolean; wwwAuthenticate: string[] };

function expectedResponse(
  a: DigestAuthorization,
  method: string,
  credentials: DigestCredentials,
  realm: string,
): string | undefined {
  const algorithm = a.algorithm.toLowerCase();
  if (algorithm !== '' && !algorithm.startsWith('md5')) return undefined;
  let ha1 = md5Hex(`${credentials.username}:${realm}:${credentials.password}`);
  if (algorithm.endsWith('-sess')) ha1 = md5Hex(`${ha1}:${a.nonce}:${a.cnonce}`);
  const ha2 = md5Hex(`${method}:${a.uri}`);
  if (a.qop === '') return md5Hex(`${ha1}:${a.nonce}:${ha2}`);
  if (a.qop.toLowerCase() === 'auth') return md5Hex(`${ha1}:${a.nonce}:${a.nc}:${a.cnonce}:${a.qop}:${ha2}`);
  return undefined;
}

/**
 * Check a request's `Authorization` header against a session, as epee's http_server_auth does.
 * On failure the session gets a new nonce and the result carries the `WWW-Authenticate` values
 * for the 401.
 */
export function verifyDigestAuthorization(
  header: string | undefined,
  method: string,
  credentials: DigestCredentials,
  nonceStore: DigestNonceStore,
  realm: string = DIGEST_REALM,
): DigestVerification {
  let stale = false;
  if (header !== undefined) {
    nonceStore.counter++;
    const a = parseDigestAuthorization(header);
    if (a && a.username === credentials.username) {
      const expected = expectedResponse(a, method, credentials, realm);
      if (expected !== undefined && expected.toLowerCase() === a.response.toLowerCase()) {
        if (a.nonce === nonceStore.nonce) {
          if (nonceStore.counter === 1 || (a.qop !== '' && parseInt(a.nc, 16) === nonceStore.counter))
            return { ok: true };
        }
        stale = true;
      }
    }
  }
  const nonce = nonceStore.renew();
  return { ok: false, stale, wwwAuthenticate: createDigestChallenge(realm, nonce, stale) };
}

// ---------------------------------------------------------------------------------------------
// Client side

export interface DigestClientRequest {
  username: string;
  password: string;
  /** HTTP method, e.g. "POST". */
  method: string;
  /** Request target, e.g. "/json_rpc". */
  uri: string;
  /** The 401's `WWW-Authenticate` value(s). */
  wwwAuthenticate: string | readonly string[];
  /** Requests made with this nonce so far, this one included (default 1). */
  nc?: number;
  /** Client nonce (default: 16 random bytes, base64). */
  cnonce?: string;
}

/**
 * The `Authorization` header value answering a Digest challenge (format of epee's client).
 * Prefers MD5 with qop=auth, then MD5-sess with qop=auth, then RFC 2069 (no qop).
 */
export function digestAuthorizationHeader(req: DigestClientRequest): string {
  const challenges = parseDigestChallenges(req.wwwAuthenticate).filter((c) => c.scheme.toLowerCase() === 'digest');
  const hasAuthQop = (c: DigestChallenge): boolean =>
    (c.params.qop ?? '').split(/[\s,]+/).some((q) => q.toLowerCase() === 'auth');
  const algo = (c: DigestChallenge): string => (c.params.algorithm ?? 'MD5').toLowerCase();
  const pick =
    challenges.find((c) => algo(c) === 'md5' && hasAuthQop(c)) ??
    challenges.find((c) => algo(c) === 'md5-sess' && hasAuthQop(c)) ??
    challenges.find((c) => algo(c) === 'md5' && c.params.qop === undefined);
  if (!pick) throw new Error(`no usable Digest challenge in: ${String(req.wwwAuthenticate)}`);
  const realm = pick.params.realm ?? '';
  const nonce = pick.params.nonce ?? '';
  const opaque = pick.params.opaque;
  const algorithm = algo(pick) === 'md5-sess' ? 'MD5-sess' : 'MD5';
  const useQop = hasAuthQop(pick);
  const nc = (req.nc ?? 1).toString(16).padStart(8, '0');
  const cnonce = req.cnonce ?? randomBytes(16).toString('base64');
  let ha1 = md5Hex(`${req.username}:${realm}:${req.password}`);
  if (algorithm === 'MD5-sess') ha1 = md5Hex(`${ha1}:${nonce}:${cnonce}`);
  const ha2 = md5Hex(`${req.method}:${req.uri}`);
  const response = useQop ? md5Hex(`${ha1}:${nonce}:${nc}:${cnonce}:auth:${ha2}`) : md5Hex(`${ha1}:${nonce}:${ha2}`);
  let out = `Digest algorithm=${algorithm},nonce="${nonce}",realm="${realm}",response="${response}",uri="${req.uri}",username="${req.username}"`;
  if (opaque !== undefined && opaque !== '') out += `,opaque="${opaque}"`;
  if (useQop) out += `,qop=auth,nc=${nc},cnonce="${cnonce}"`;
  return out;
}
