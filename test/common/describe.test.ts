// Counts in messages read as English: "1 link", "3 links".
import { describe, expect, it } from 'vitest';
import { counted } from '../../harness/common/describe.js';

describe('counted', () => {
  it('says the noun once for one, and its plural otherwise', () => {
    expect([counted(0, 'link'), counted(1, 'link'), counted(3, 'link')]).toEqual(['0 links', '1 link', '3 links']);
    expect(counted(1, 'scenario wallet')).toBe('1 scenario wallet');
    expect(counted(2, 'entry', 'entries')).toBe('2 entries');
  });
});
