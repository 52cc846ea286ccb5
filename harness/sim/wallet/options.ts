// Command-line options shared by salvium-wallet-cli and salvium-wallet-rpc (reference §1.2, §1.3). Repeatable in
// v1.1.3c: the CLI's positional `command`, and --daemon-ssl-allowed-fingerprints (both programs) and the wallet RPC's
// --rpc-ssl-allowed-fingerprints, which the simulator does not take; every other option given twice fails.
import { COMMON_OPTIONS, flag, isPort, isUnsigned, value, type OptionSpec } from '../common/options.js';

/** The heading of the option list after a parse failure: a blank line, then the first of the wallets' groups. */
export const WALLET_OPTIONS_HEADING = '\nGeneral options:';

export const WALLET_COMMON_OPTIONS: OptionSpec[] = [
  ...COMMON_OPTIONS,
  flag('testnet'),
  flag('stagenet'),
  value('wallet-file'),
  value('password'),
  value('password-file'),
  value('daemon-address'),
  value('daemon-host'),
  value('daemon-port', isPort),
  value('daemon-login'),
  value('daemon-ssl'),
  value('daemon-ssl-private-key'),
  value('daemon-ssl-certificate'),
  value('daemon-ssl-ca-certificates'),
  flag('daemon-ssl-allow-any-cert'),
  flag('trusted-daemon'),
  flag('untrusted-daemon'),
  flag('offline'),
  flag('no-dns'),
  flag('allow-mismatched-daemon-version'),
  value('shared-ringdb-dir'),
  value('kdf-rounds', isUnsigned),
  value('max-concurrency', isUnsigned),
  value('proxy'),
  value('extra-entropy'),
  flag('use-english-language-names'),
];

export const WALLET_RPC_OPTIONS: OptionSpec[] = [
  ...WALLET_COMMON_OPTIONS,
  value('rpc-bind-port', isPort),
  value('rpc-bind-ip'),
  value('rpc-bind-ipv6-address'),
  flag('rpc-use-ipv6'),
  flag('confirm-external-bind'),
  flag('restricted-rpc'),
  value('rpc-login'),
  flag('disable-rpc-login'),
  value('rpc-access-control-origins'),
  value('rpc-ssl'),
  value('rpc-ssl-private-key'),
  value('rpc-ssl-certificate'),
  value('rpc-ssl-ca-certificates'),
  value('rpc-max-connections', isUnsigned),
  value('rpc-max-connections-per-private-ip', isUnsigned),
  value('rpc-max-connections-per-public-ip', isUnsigned),
  value('wallet-dir'),
  value('generate-from-json'),
  flag('prompt-for-password'),
  flag('no-initial-sync'),
  flag('non-interactive'),
  flag('detach'),
  value('pidfile'),
];

export const WALLET_CLI_OPTIONS: OptionSpec[] = [
  ...WALLET_COMMON_OPTIONS,
  value('generate-new-wallet'),
  value('generate-from-view-key'),
  value('generate-from-spend-key'),
  value('generate-from-keys'),
  flag('restore-deterministic-wallet'),
  flag('restore-from-seed'),
  value('electrum-seed'),
  value('restore-height', isUnsigned),
  value('restore-date'),
  value('mnemonic-language'),
  flag('create-address-file'),
  value('subaddress-lookahead'),
  flag('do-not-relay'),
  { name: 'command', kind: 'value', multi: true },
];

/** Daemon address from --daemon-address / --daemon-host / --daemon-port (default: local testnet port). */
export function daemonAddress(get: (n: string) => string | undefined): string {
  const explicit = get('daemon-address');
  if (explicit) return explicit;
  return `${get('daemon-host') ?? 'localhost'}:${get('daemon-port') ?? '29081'}`;
}
