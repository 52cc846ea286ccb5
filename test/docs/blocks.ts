// The fenced code blocks of the project's Markdown files, with where each one starts.
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { globSync } from 'tinyglobby';

export interface Block {
  /** file:line of the opening fence, relative to the project. */
  where: string;
  file: string;
  line: number;
  lang: string;
  text: string;
}

export const ROOT = new URL('../../', import.meta.url).pathname;

/** The Markdown files whose examples the suite runs: README.md, docs/ and the harness folders' READMEs. */
export function docFiles(): string[] {
  return globSync(['README.md', 'docs/*.md', 'harness/**/README.md', 'fixtures/**/README.md'], {
    cwd: ROOT,
    absolute: true,
  }).sort();
}

interface Node {
  type: string;
  lang?: string | null;
  value?: string;
  position?: { start: { line: number } };
  children?: Node[];
}

export function blocksOf(file: string): Block[] {
  const out: Block[] = [];
  const visit = (n: Node): void => {
    if (n.type === 'code' && n.position) {
      const line = n.position.start.line;
      const rel = relative(ROOT, file);
      out.push({ where: `${rel}:${line}`, file: rel, line, lang: n.lang ?? '', text: n.value ?? '' });
    }
    for (const c of n.children ?? []) visit(c);
  };
  visit(fromMarkdown(readFileSync(file, 'utf8')) as Node);
  return out;
}

export function allBlocks(): Block[] {
  return docFiles().flatMap(blocksOf);
}
