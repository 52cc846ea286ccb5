// The real wallet's asset order (get_balance all_assets) is libstdc++'s unordered_map order: checked
// against a g++ build (hashes, and 40 keys across two rehashes) and against the real programs.
import { describe, expect, it } from 'vitest';
import { stdHash, unorderedMapOrder } from '../../../harness/sim/wallet/asset-order.js';

describe('the real wallet’s asset order', () => {
  it('hashes strings as std::hash<std::string> does on 64-bit Linux (values from g++)', () => {
    expect(stdHash('SAL1')).toBe(3789189364455712142n);
    expect(stdHash('abcdefghij')).toBe(18042067762304121004n);
    expect(stdHash('salORD1')).toBe(12170887838354046648n);
  });

  it('lists keys as a std::unordered_map iterates them, through its rehashes (g++: 13 buckets, then 59)', () => {
    const keys = Array.from({ length: 40 }, (_, i) => `sal${String(i).padStart(4, '0')}`);
    expect(unorderedMapOrder(keys).slice(0, 6)).toEqual([
      'sal0036',
      'sal0035',
      'sal0032',
      'sal0029',
      'sal0010',
      'sal0031',
    ]);
    expect(unorderedMapOrder(keys).slice(-3)).toEqual(['sal0026', 'sal0034', 'sal0028']);
    expect(unorderedMapOrder(['SAL', 'SAL1'])).toEqual(['SAL1', 'SAL']);
  });

  it('matches the real wallets: assets received later first, and turned round by a reload', () => {
    expect(unorderedMapOrder(['SAL1', 'salXPA1', 'salXPB1'])).toEqual(['salXPB1', 'salXPA1', 'SAL1']);
    expect(unorderedMapOrder(['SAL1', 'salXPC1', 'salXPD1', 'salXPE1', 'salXPF1'])).toEqual([
      'salXPF1',
      'salXPE1',
      'salXPD1',
      'salXPC1',
      'SAL1',
    ]);
    expect(unorderedMapOrder(['salRCV1', 'SAL1'])).toEqual(['SAL1', 'salRCV1']);
    const live = unorderedMapOrder(['SAL1', 'salORD1']);
    expect(live).toEqual(['salORD1', 'SAL1']);
    // stop_wallet, then the wallet RPC started again on the same file:
    expect(unorderedMapOrder(live)).toEqual(['SAL1', 'salORD1']);
    // transcript 43: a reopened wallet that scanned SAL, then SAL1
    expect(unorderedMapOrder(unorderedMapOrder(['SAL', 'SAL1']))).toEqual(['SAL', 'SAL1']);
  });
});
