// The real programs' recorded request/response pairs (../shared/reference/transcripts).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const TRANSCRIPTS = fileURLToPath(new URL('../../../shared/reference/transcripts/', import.meta.url));

export function transcript(name: string): any {
  return JSON.parse(readFileSync(join(TRANSCRIPTS, name), 'utf8'));
}

export function transcriptText(name: string): string {
  return readFileSync(join(TRANSCRIPTS, name), 'utf8');
}
