// The simulator derives every address of a seed as the real wallet does: vectors recorded from salvium-wallet-rpc and
// salvium-wallet-cli v1.1.3c (fixtures/salvium-v1.1.3c/carrot-addresses.json says how) for a random seed and the two
// fixture wallets: Carrot keys, CN and Carrot addresses of the main address, accounts and subaddresses, integrated.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { decodeAddress, encodeAddress } from '../../../harness/sim/crypto/address.js';
import { GENERATOR_T, carrotAccountViewKey } from '../../../harness/sim/crypto/carrot.js';
import { fromHex, toHex } from '../../../harness/sim/crypto/hex.js';
import { carrotDestinationAddress, walletFromSeed, type SimWallet } from '../../../harness/sim/crypto/keys.js';
import { wordsToSeed } from '../../../harness/sim/crypto/mnemonic.js';
import {
  accountSpendKeys,
  isSubaddressOf,
  subaddressSpendKey,
  subaddressViewKey,
  type SubaddressBase,
} from '../../../harness/sim/crypto/subaddress.js';
import { fixtureWallet } from '../../../harness/testnet/programs/fixture-wallets.js';

interface Recorded {
  payment_id: string;
  wallets: Record<
    string,
    {
      seed?: string;
      fixture?: string;
      keys: Record<string, string>;
      viewkey_cli?: Record<string, string>;
      addresses: { major: number; minor: number; cn: string; carrot: string }[];
      integrated: string;
    }
  >;
}
const recorded = JSON.parse(
  readFileSync(new URL('../../../fixtures/salvium-v1.1.3c/carrot-addresses.json', import.meta.url), 'utf8'),
) as Recorded;

const seedOf = (name: string): string => recorded.wallets[name]!.seed ?? fixtureWallet(name).seed;
const walletOf = (name: string): SimWallet => walletFromSeed(wordsToSeed(seedOf(name)), 'testnet');

const bases = (w: SimWallet): Record<'cn' | 'carrot', SubaddressBase> => ({
  cn: { family: 'cn', spendPublic: w.cn.spendPublic, viewSecret: w.cn.viewSecret },
  carrot: {
    family: 'carrot',
    spendPublic: w.carrot.spendPublic,
    viewSecret: w.carrot.viewSecret,
    generateAddress: w.carrot.generateAddress,
  },
});

/** The address of (major, minor) in a family, from the simulator's derivation. */
function addressOf(w: SimWallet, family: 'cn' | 'carrot', major: number, minor: number): string {
  if (major === 0 && minor === 0) return w[family].address;
  const base = bases(w)[family];
  const spend = subaddressSpendKey(base, major, minor);
  return encodeAddress({
    network: 'testnet',
    family,
    type: 'subaddress',
    spendPublicKey: spend,
    viewPublicKey: subaddressViewKey(base, spend),
  });
}

describe.each(Object.keys(recorded.wallets))('the addresses of %s are the real wallet’s', (name) => {
  const r = recorded.wallets[name]!;
  const w = walletOf(name);

  it('Carrot keys (query_key)', () => {
    expect({
      k_prove_spend: w.carrot.spendSecret,
      s_view_balance: w.carrot.viewBalance,
      k_view_incoming: w.carrot.viewSecret,
      k_generate_image: w.carrot.generateImage,
      s_generate_address: w.carrot.generateAddress,
    }).toEqual({
      k_prove_spend: r.keys.k_prove_spend,
      s_view_balance: r.keys.s_view_balance,
      k_view_incoming: r.keys.k_view_incoming,
      k_generate_image: r.keys.k_generate_image,
      s_generate_address: r.keys.s_generate_address,
    });
    if (r.keys.s_master) expect(w.cn.spendSecret).toBe(r.keys.s_master);
    if (r.keys.view_key) expect(w.cn.viewSecret).toBe(r.keys.view_key);
  });

  it('main address, accounts and subaddresses of both families (get_address)', () => {
    for (const a of r.addresses) {
      expect({
        ...a,
        cn: addressOf(w, 'cn', a.major, a.minor),
        carrot: addressOf(w, 'carrot', a.major, a.minor),
      }).toEqual(a);
    }
  });

  it('the Carrot integrated address (make_integrated_address) is the main address with the payment id', () => {
    const main = decodeAddress(w.carrot.address)!;
    const integrated = encodeAddress({ ...main, type: 'integrated', paymentId: fromHex(recorded.payment_id) });
    expect(integrated).toBe(r.integrated);
  });

  it('each subaddress is in its account’s list of spend keys; its view key says it is this wallet’s', () => {
    const other = bases(walletOf(name === 'miner' ? 'main' : 'miner'));
    for (const a of r.addresses) {
      for (const family of ['cn', 'carrot'] as const) {
        const d = decodeAddress(a[family])!;
        expect(accountSpendKeys(bases(w)[family], a.major, a.minor, 1)).toEqual([toHex(d.spendPublicKey)]);
        if (a.major === 0 && a.minor === 0) continue;
        expect(isSubaddressOf(bases(w)[family], d.spendPublicKey, d.viewPublicKey)).toBe(true);
        expect(isSubaddressOf(other[family], d.spendPublicKey, d.viewPublicKey)).toBe(false);
      }
    }
  });
});

describe('the Carrot account', () => {
  it('the second generator T is the one of src/crypto/generators.cpp', () => {
    expect(toHex(GENERATOR_T.toBytes())).toBe('966fc66b82cd56cf85eaec801c42845f5f408878d1561e00d3d7ded2794d094f');
  });

  it("the wallet CLI's viewkey shows the account view key K_v = k_vi·K_s, not the main address's k_vi·G", () => {
    const fresh = recorded.wallets.fresh!;
    const w = walletOf('fresh');
    const accountView = toHex(carrotAccountViewKey(fromHex(w.carrot.viewSecret), fromHex(w.carrot.spendPublic)));
    expect(w.cn.viewPublic).toBe(fresh.viewkey_cli!['CN public']);
    expect(accountView).toBe(fresh.viewkey_cli!['Carrot public']);
    expect(w.carrot.viewPublic).not.toBe(accountView);
  });
});

describe('carrotDestinationAddress', () => {
  const main = walletOf('main');
  const miner = recorded.wallets.miner!;

  it("a payment to one's own main or integrated address shows the account address (K_s, k_vi·K_s)", () => {
    // As salvium-wallet-rpc v1.1.3c recorded it for main (fixtures/conformance/salvium-v1.1.3c/
    // transfer-destinations.json).
    const recordedAccount =
      'SC1TorbMnM1FD945vpj2w1ji4y9SMuxu8htsHHVMmnkyd33EPy97HMSYJLaeh5ysPj9btXxZtb8e92NisFhyVbLt9ytTcaSjmNM';
    const account = encodeAddress({
      network: 'testnet',
      family: 'carrot',
      type: 'standard',
      spendPublicKey: fromHex(main.carrot.spendPublic),
      viewPublicKey: carrotAccountViewKey(fromHex(main.carrot.viewSecret), fromHex(main.carrot.spendPublic)),
    });
    expect(account).toBe(recordedAccount);
    expect(carrotDestinationAddress(main.carrot.address, main.carrot.viewSecret)).toBe(account);
    expect(carrotDestinationAddress(recorded.wallets.main!.integrated, main.carrot.viewSecret)).toBe(account);
  });

  it("one's own subaddress stays itself", () => {
    const sub = recorded.wallets.main!.addresses.find((a) => a.minor === 1)!.carrot;
    expect(carrotDestinationAddress(sub, main.carrot.viewSecret)).toBe(sub);
  });

  it("another wallet's address shows as sent, its integrated address without the payment id", () => {
    expect(carrotDestinationAddress(miner.addresses[0]!.carrot)).toBe(miner.addresses[0]!.carrot);
    expect(carrotDestinationAddress(miner.addresses[1]!.carrot)).toBe(miner.addresses[1]!.carrot);
    expect(carrotDestinationAddress(miner.integrated)).toBe(miner.addresses[0]!.carrot);
  });

  it('returns CN addresses and text that is no address unchanged', () => {
    expect(carrotDestinationAddress(miner.addresses[0]!.cn, main.carrot.viewSecret)).toBe(miner.addresses[0]!.cn);
    expect(carrotDestinationAddress('garbage')).toBe('garbage');
  });
});
