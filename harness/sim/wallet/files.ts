// Wallet files: `<name>.keys` (the seed) and `<name>` (the scan cache), both encrypted with a key
// derived from the wallet password (scrypt + AES-256-GCM), so a wrong password is detected and no
// secret is stored in clear. Writes are atomic (temp file + rename).
import { createCipheriv, createDecipheriv, randomBytes, scryptSync } from 'node:crypto';
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';

const FORMAT = 'saltnet-sim-wallet';
const SCRYPT = { N: 1 << 14, r: 8, p: 1 } as const;

interface Envelope {
  format: string;
  kind: 'keys' | 'cache';
  salt: string;
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
  key: Buffer;
}

export function deriveKey(password: string, salt: Buffer = randomBytes(16)): WalletKey {
  return { salt, key: scryptSync(password, salt, 32, SCRYPT) };
}

function seal(kind: Envelope['kind'], wk: WalletKey, plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', wk.key, iv);
  const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  const env: Envelope = {
    format: FORMAT,
    kind,
    salt: wk.salt.toString('hex'),
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
  const key = deriveKey(password, Buffer.from(env.salt, 'hex'));
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
