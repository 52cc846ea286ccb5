// The progress lines a command prints on stderr while it starts or runs a testnet ("daemon ready at …"). Once a
// second signal has started killing every process, they stop: the process is about to exit, and a line saying a
// program is ready would follow "killing every process now".
import { killingEverything } from '../process/supervisor.js';

export function progressLog(line: string): void {
  if (killingEverything()) return;
  process.stderr.write(`${line}\n`);
}
