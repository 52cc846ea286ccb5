// Wallet files: `<name>.keys` (the seed) and `<name>` (the scan cache), both encrypted with a key
// derived from the wallet password (scrypt + AES-256-GCM), so a wrong password is detected and no
// secret is stored in clear. Writes are atomic (temp file + rename).
import { createCipheriv, createDecipheriv, randomBytes, scryptSync } from 'node:crypto';
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';

const FORMAT = 'saltnet-sim-wallet';
// scrypt's cost: 2^10, about 2 ms (2^14 took 65 ms, two or three times at every start of a simulated wallet program,
// over a hundred CPU seconds of the test suite). The passwords saltnet generates are random: the cost does not guard
// them. A file records its cost; one without it was written with 2^14, as every file was before.
const SCRYPT_N = 1 << 10;
const OLD_SCRYPT_N = 1 << 14;

interface Envelope {
  format: string;
  kind: 'keys' | 'cache';
  salt: string;
  /** scrypt's N (absent: OLD_SCRYPT_N). */
  n?: number;
  iv: string;
  tag: string;
  data: string;
}

export class InvalidPassword extends Error {
  constructor() {
    super('invalid password');
  }
}

export interface WalletKey {
  salt: Buffer;
  /** scrypt's N. */
  n: number;
  key: Buffer;
}

/** The key of `password`: with a new salt at the current cost, or as a wallet's key (its salt, its cost) was made. */
export function deriveKey(password: string, like?: Pick<WalletKey, 'salt' | 'n'>): WalletKey {
  const { salt, n } = like ?? { salt: randomBytes(16), n: SCRYPT_N };
  return { salt, n, key: scryptSync(password, salt, 32, { N: n, r: 8, p: 1 }) };
}

function seal(kind: Envelope['kind'], wk: WalletKey, plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', wk.key, iv);
  const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  const env: Envelope = {
    format: FORMAT,
    kind,
    salt: wk.salt.toString('hex'),
    n: wk.n,
    iv: iv.toString('hex'),
    tag: cipher.getAuthTag().toString('hex'),
    data: data.toString('base64'),
  };
  return JSON.stringify(env);
}

function readEnvelope(path: string): Envelope {
  const env = JSON.parse(readFileSync(path, 'utf8')) as Envelope;
  if (env.format !== FORMAT) throw new Error(`${path} is not a simulated wallet file`);
  return env;
}

function open(env: Envelope, wk: WalletKey): string {
  const decipher = createDecipheriv('aes-256-gcm', wk.key, Buffer.from(env.iv, 'hex'));
  decipher.setAuthTag(Buffer.from(env.tag, 'hex'));
  try {
    return Buffer.concat([decipher.update(Buffer.from(env.data, 'base64')), decipher.final()]).toString('utf8');
  } catch {
    throw new InvalidPassword();
  }
}

export function writeAtomic(path: string, text: string): void {
  const tmp = `${path}.tmp-${process.pid}`;
  try {
    writeFileSync(tmp, text, { mode: 0o600 });
    renameSync(tmp, path);
  } catch (err) {
    // A full disk leaves no half-written file behind: the wallet on disk stays the last whole one.
    rmSync(tmp, { force: true });
    throw err;
  }
}

export const keysPath = (walletPath: string): string => `${walletPath}.keys`;
export const walletExists = (walletPath: string): boolean => existsSync(walletPath) || existsSync(keysPath(walletPath));

/** Read the keys file with a password: returns the plaintext and the derived key for the cache. */
export function readKeys(walletPath: string, password: string): { plaintext: string; key: WalletKey } {
  const env = readEnvelope(keysPath(walletPath));
  const key = deriveKey(password, { salt: Buffer.from(env.salt, 'hex'), n: env.n ?? OLD_SCRYPT_N });
  return { plaintext: open(env, key), key };
}

export function writeKeys(walletPath: string, key: WalletKey, plaintext: string): void {
  writeAtomic(keysPath(walletPath), seal('keys', key, plaintext));
}

export function readCache(walletPath: string, key: WalletKey): string | undefined {
  if (!existsSync(walletPath)) return undefined;
  try {
    return open(readEnvelope(walletPath), key);
  } catch {
    return undefined; // a damaged cache is rebuilt by rescanning, as the real wallet does
  }
}

export function writeCache(walletPath: string, key: WalletKey, plaintext: string): void {
  writeAtomic(walletPath, seal('cache', key, plaintext));
}
