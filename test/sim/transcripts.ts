// The real programs' recorded request/response pairs (fixtures/transcripts/salvium-v1.1.3c: salviumd and
// salvium-wallet-rpc v1.1.3c, recorded once; see its README).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const TRANSCRIPTS = fileURLToPath(new URL('../../fixtures/transcripts/salvium-v1.1.3c/', import.meta.url));

export function transcript(name: string): any {
  return JSON.parse(readFileSync(join(TRANSCRIPTS, name), 'utf8'));
}

export function transcriptText(name: string): string {
  return readFileSync(join(TRANSCRIPTS, name), 'utf8');
}
