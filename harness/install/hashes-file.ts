// Reading a release's published hashes file. The standard is `sha256sum` output
// (`<hex>  <name>`, or `<hex> *<name>` in binary mode); `sha256sum --tag` / BSD lines
// (`SHA256 (<name>) = <hex>`) and Monero-style `<name>, <hex>` lines are read too, since forks of
// Monero publish that. Other lines (headers, a PGP clear-signature's armour) are skipped: a
// signature is NOT checked here.
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { InstallError } from './errors.js';
import { fetchText } from './download.js';

export interface HashLine {
  name: string;
  sha256: string;
}

const GNU = /^([0-9a-fA-F]{64}) [ *](.+)$/;
const BSD = /^SHA256 ?\((.+)\) ?= ?([0-9a-fA-F]{64})$/;
const MONERO = /^([^\s,]+),\s*([0-9a-fA-F]{64})$/;

/** Every `name → sha256` line of a hashes file, in file order; names lose a leading `./` or folder. */
export function parseHashesFile(text: string): { lines: HashLine[]; skipped: string[] } {
  const lines: HashLine[] = [];
  const skipped: string[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    let name: string | undefined;
    let sha256: string | undefined;
    let m = GNU.exec(line);
    if (m) [, sha256, name] = m;
    else if ((m = BSD.exec(line))) [, name, sha256] = m;
    else if ((m = MONERO.exec(line))) [, name, sha256] = m;
    if (name === undefined || sha256 === undefined) {
      skipped.push(line);
      continue;
    }
    // A hashes file made with `sha256sum out/*` names the files with their folder.
    lines.push({ name: name.replace(/\\/g, '/').split('/').pop() ?? name, sha256: sha256.toLowerCase() });
  }
  return { lines, skipped };
}

/** The hash a hashes file gives for `name`; throws when it gives two different ones. */
export function hashFor(lines: HashLine[], name: string, source: string): string | undefined {
  const found = new Set(lines.filter((l) => l.name === name).map((l) => l.sha256));
  if (found.size > 1)
    throw new InstallError(
      'HASHES_FILE_MISMATCH',
      `${source} lists ${name} with ${found.size} different hashes: ${[...found].join(', ')}`,
    );
  return [...found][0];
}

/** The text of a hashes file given as an http(s) URL, a file: URL or a path. */
export async function readHashesFile(source: string, opts: { maxBytes?: number } = {}): Promise<string> {
  if (/^https?:\/\//i.test(source)) return fetchText(source, { maxBytes: opts.maxBytes ?? 4 * 2 ** 20 });
  const path = /^file:/i.test(source) ? fileURLToPath(source) : source;
  try {
    return await readFile(path, 'utf8');
  } catch (err) {
    throw new InstallError(
      'DOWNLOAD_FAILED',
      `cannot read the hashes file ${path}: ${err instanceof Error ? err.message : String(err)}`,
      { cause: err },
    );
  }
}
