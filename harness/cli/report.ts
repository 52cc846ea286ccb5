// `saltnet report merge <files…>`: the JSON or JUnit reports of a suite's shards, run on separate
// runners with `saltnet run --shard i/n` (or the JUnit reports of `vitest run --shard i/n`), joined into one report.
import { readFileSync } from 'node:fs';
import type { Argv, CommandModule } from 'yargs';
import { errnoWords } from '../common/errno.js';
import { checkOutputPath, writeOutputFile } from '../common/output-file.js';
import { lockOutput } from '../process/output-lock.js';
import { mergeReports, reportFormatOf, type ReportFormat, type ShardReport } from '../scenario/report/merge.js';

interface MergeArgs {
  files: string[];
  output?: string;
  /** Typed, or run.reporter of the config file; `human` (its default) says nothing of a merge. */
  reporter?: ReportFormat | 'human';
}

function readReport(path: string): ShardReport {
  try {
    return { path, text: readFileSync(path, 'utf8') };
  } catch (err) {
    throw new Error(`${path}: cannot read the report (${errnoWords(err)})`, { cause: err });
  }
}

const merge: CommandModule<object, MergeArgs> = {
  command: 'merge <files..>',
  describe: "join the reports of a suite's shards (saltnet run --shard i/n) into one",
  builder: (y) =>
    y
      .positional('files', {
        type: 'string',
        array: true,
        demandOption: true,
        describe:
          'the reports saltnet run --reporter json|junit --output wrote (or vitest --reporter=junit), one per shard',
      })
      .option('output', { type: 'string', describe: 'write the merged report to this file (default: stdout)' })
      .option('reporter', {
        choices: ['json', 'junit'] as const,
        describe:
          'the format of the reports (default: run.reporter of the config file if json or junit, else that of the first)',
      }) as unknown as Argv<MergeArgs>,
  handler: async (a) => {
    if (a.output) checkOutputPath('--output', a.output, a.files);
    const reports = a.files.map(readReport);
    const format = a.reporter === 'json' || a.reporter === 'junit' ? a.reporter : reportFormatOf(reports[0]!.text);
    if (!format) throw new Error(`${reports[0]!.path}: not a saltnet report (neither JSON nor JUnit XML)`);
    const text = mergeReports(reports, format);
    if (!a.output) return void process.stdout.write(text);
    // One writer per output: a second merge into the same file is refused now, not when it would overwrite.
    const lock = await lockOutput(a.output, '--output', 'saltnet report merge');
    try {
      writeOutputFile('--output', a.output, text);
    } finally {
      lock.release();
    }
  },
};

export const reportCommand: CommandModule = {
  command: 'report <command>',
  describe: 'the reports of saltnet run: merge <files..>',
  builder: (y) => y.command(merge).demandCommand(1, 'say what to do: saltnet report merge <files..>'),
  handler: () => undefined,
};
