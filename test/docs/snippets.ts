// The TypeScript and JavaScript snippets of the docs: split into their files (a `// name.ts` line
// starts one), type-checked together against the package's sources, and the library snippet run.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { execa } from 'execa';
import ts from 'typescript';
import { ROOT, type Block } from './blocks.js';

export interface Snippet {
  where: string;
  name: string;
  text: string;
}

const FILE_LINE = /^\/\/ ([\w./-]+\.(?:ts|mts|js|mjs))\b.*$/;

/** A block's files: each `// name.ts` comment line at the left margin starts one. */
export function snippetsOf(b: Block): Snippet[] {
  const out: Snippet[] = [];
  let cur: Snippet = { where: b.where, name: 'snippet.ts', text: '' };
  for (const line of b.text.split('\n')) {
    const m = FILE_LINE.exec(line);
    if (m) {
      if (cur.text.trim()) out.push(cur);
      cur = { where: b.where, name: m[1]!.split('/').pop()!, text: '' };
    }
    cur.text += `${line}\n`;
  }
  if (cur.text.trim()) out.push(cur);
  return out;
}

/** Type errors of the snippets (each block's files in a folder of their own under `dir`), as `where: message`. */
export function typecheckSnippets(snippets: Snippet[], dir: string): string[] {
  rmSync(dir, { recursive: true, force: true });
  const origin = new Map<string, string>();
  for (const s of snippets) {
    const file = join(dir, s.where.replace(/[/:.]/g, '_'), s.name.replace(/\.(js|mjs)$/, '.ts'));
    mkdirSync(dirname(file), { recursive: true });
    // A snippet is a module: its top-level await and its names are its own.
    writeFileSync(file, /^\s*(import|export)\b/m.test(s.text) ? s.text : `${s.text}\nexport {};\n`);
    origin.set(file, s.where);
  }
  const config = ts.getParsedCommandLineOfConfigFile(
    join(ROOT, 'tsconfig.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: () => undefined,
    },
  )!;
  const program = ts.createProgram([...origin.keys()], {
    ...config.options,
    noEmit: true,
    noUnusedLocals: false,
    baseUrl: ROOT,
    paths: {
      saltnet: ['harness/index.ts'],
      'saltnet/vitest': ['harness/vitest/index.ts'],
      'saltnet/vitest/global-setup': ['harness/vitest/global-setup.ts'],
    },
  });
  return ts
    .getPreEmitDiagnostics(program)
    .filter((d) => d.file && origin.has(d.file.fileName))
    .map((d) => {
      const { line } = d.file!.getLineAndCharacterOfPosition(d.start ?? 0);
      return `${origin.get(d.file!.fileName)} (${relative(dir, d.file!.fileName)}:${line + 1}): ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
    });
}

/**
 * Run a JavaScript snippet as a user's project runs it: a module of a temporary project (`name` in a folder of its own
 * with node_modules/saltnet, this repository: `import … from 'saltnet'` is the package itself), from that folder, where
 * nothing of this repository (its scenarios/, its fixtures/) is.
 */
export async function runLibrarySnippet(
  b: Block | Snippet,
  name: string,
): Promise<{ exitCode: number; stdout: string; stderr: string }> {
  // TypeScript is compiled as a user's build would (await using included, for Node 20), then run.
  const js = /\.m?ts$/.test('name' in b ? b.name : '')
    ? ts.transpileModule(b.text, { compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext } })
        .outputText
    : b.text;
  const project = mkdtempSync(join(tmpdir(), 'saltnet-doc-project-'));
  try {
    mkdirSync(join(project, 'node_modules'));
    symlinkSync(ROOT, join(project, 'node_modules', 'saltnet'));
    writeFileSync(join(project, name), js);
    const r = await execa(process.execPath, [name], { cwd: project, reject: false, timeout: 180_000, all: false });
    return { exitCode: r.exitCode ?? -1, stdout: String(r.stdout), stderr: String(r.stderr) };
  } finally {
    rmSync(project, { recursive: true, force: true });
  }
}
