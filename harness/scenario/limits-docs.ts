// The "Limits" section of docs/scenario-language.md, from the bounds themselves.
import { MAX_HEIGHT } from '../limits.js';
import { BACKENDS, fundingAsset } from '../coin/backends.js';
import {
  formatBytes,
  MAX_BLOCKS_MINED,
  MAX_BLOCKS_PER_STEP,
  MAX_FUNDING_BLOCKS,
  MAX_METADATA_FILE_BYTES,
  MAX_PATTERN_LENGTH,
  MAX_PROBLEMS_COLLECTED,
  MAX_PROBLEMS_SHOWN,
  MAX_SCENARIO_BYTES,
  MAX_STEPS,
  MAX_SUBJECT_LENGTH,
  MAX_WAIT_SECONDS,
  MAX_WALLETS,
} from './bounds.js';
import { fundable, showAmount } from './fund-limits.js';

/** The "Limits" section of docs/scenario-language.md. */
export function limitsMarkdown(): string {
  // each fund asset once (the simulator funds as Salvium does)
  const funded = [...new Map(Object.values(BACKENDS).map((b) => [fundingAsset(b), b])).values()];
  const fundableText = funded.map((b) => showAmount(fundable(b), fundingAsset(b))).join(', ');
  const rewards = funded.map((b) => showAmount(b.typicalReward, fundingAsset(b))).join(', ');
  const tokens = Object.values(BACKENDS).find((b) => b.tokenCost !== undefined && b.fundAsset !== undefined);
  const tokenText = tokens
    ? `, with ${showAmount(tokens.tokenCost! + tokens.feeMargin, fundingAsset(tokens))} for each held token (\`tokens\`)`
    : '';
  const supplies = [...new Map(Object.values(BACKENDS).map((b) => [b.coin.unit, b])).values()]
    .map((b) => `${b.coin.chain}: ${showAmount(b.coin.supply, b.coin.unit)}`)
    .join(', ');
  const rows: [string, string][] = [
    [
      'scenario file',
      `at most ${formatBytes(MAX_SCENARIO_BYTES)}; a larger file (or /dev/zero, a FIFO, a folder) is refused unread`,
    ],
    ['steps', `at most ${MAX_STEPS}`],
    ['wallets', `at most ${MAX_WALLETS} besides \`main\` (each is a wallet RPC process of its own)`],
    [
      'problems reported',
      `the first ${MAX_PROBLEMS_SHOWN} are printed and the rest counted; the check stops after ${MAX_PROBLEMS_COLLECTED}`,
    ],
    ['`requires.height`, `mine: {to}`', `at most ${MAX_HEIGHT}`],
    ['`mine`, `mine: {blocks}`, `wait.blocks`', `at most ${MAX_BLOCKS_PER_STEP} blocks a step`],
    [
      'blocks mined by the steps in all',
      `at most ${MAX_BLOCKS_MINED} (a \`wait\` with \`mine: true\` and no \`blocks\` counts ${MAX_BLOCKS_PER_STEP}, and stops after that many)`,
    ],
    [
      '`wait.seconds`',
      `at most ${MAX_WAIT_SECONDS}; every wait gives up after ${MAX_WAIT_SECONDS} s, also one that gives only \`blocks\``,
    ],
    [
      '`requires.unlocked`, `wallets.<name>.unlocked`, `tokens`',
      `never above the asset's whole supply (${supplies}); the fund asset in all${tokenText}, at most what ${MAX_FUNDING_BLOCKS} blocks of mining pay (the runner counts ${rewards} a block): ${fundableText}`,
    ],
    [
      '`matches`',
      `a pattern of at most ${MAX_PATTERN_LENGTH} characters, run by RE2 (linear time: no backreferences, no lookaround); values longer than ${MAX_SUBJECT_LENGTH} characters do not match`,
    ],
    [
      '`metadata: {file}`',
      `a regular file of at most ${formatBytes(MAX_METADATA_FILE_BYTES)}, inside the scenario file's folder or the working directory once symbolic links are followed; \`saltnet run --allow-files-outside\` (runner option \`allowFilesOutside\`) lifts the folder rule, not the others`,
    ],
  ];
  return [
    '## Limits',
    '',
    'A scenario file may come from anyone, so saltnet checks it against these bounds when it reads it, before',
    'any testnet starts: a file that asks for more is refused with the line, the field, the limit and why.',
    'Each bound is far above what a test needs (the example scenarios stay under height 1500, under 100',
    'blocks a step and waits of a minute).',
    '',
    '| what | limit |',
    '| --- | --- |',
    ...rows.map(([w, l]) => `| ${w} | ${l} |`),
  ].join('\n');
}
