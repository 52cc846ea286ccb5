// Serve the testnet's explorer (once; later asks get the same page) (`saltnet ui`, `up --ui`).
import { z } from 'zod';
import { explorer } from '../../ui/explorer.js';
import { defineOperation, whole } from '../operation.js';

export interface UiAnswer {
  url: string;
}

export const uiOperation = defineOperation({
  name: 'ui',
  what: 'start the explorer',
  body: z.strictObject({ port: whole(1, 65535, 'a TCP port') }),
  concurrent: true,
  async run(t, { port }): Promise<UiAnswer> {
    return { url: (await explorer(t, port !== undefined ? { port } : {})).url };
  },
});
