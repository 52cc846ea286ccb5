// Which Salvium build this machine needs. Platform ids use the words release archives use
// (x86_64, aarch64, arm64, x64), not Node's (x64, arm64, win32), because they key the pinned table
// that a maintainer reads next to a release's asset list.
import { InstallError } from './errors.js';

export const PLATFORMS = ['linux-x86_64', 'linux-aarch64', 'macos-x86_64', 'macos-arm64', 'windows-x64'] as const;
export type PlatformId = (typeof PLATFORMS)[number];

const BY_NODE: Record<string, PlatformId> = {
  'linux x64': 'linux-x86_64',
  'linux arm64': 'linux-aarch64',
  'darwin x64': 'macos-x86_64',
  'darwin arm64': 'macos-arm64',
  'win32 x64': 'windows-x64',
};

/** The platform id of an OS/CPU pair as Node names them (default: this machine's). */
export function platformFor(platform: string = process.platform, arch: string = process.arch): PlatformId {
  const id = BY_NODE[`${platform} ${arch}`];
  if (!id) {
    throw new InstallError(
      'UNSUPPORTED_PLATFORM',
      `Salvium publishes no build for ${platform} ${arch}; supported: ${PLATFORMS.join(', ')}. ` +
        'Build Salvium from source (https://github.com/salvium/salvium) and pass its folder as --bin-dir, or use --backend sim',
    );
  }
  return id;
}

export function isPlatformId(s: string): s is PlatformId {
  return (PLATFORMS as readonly string[]).includes(s);
}

/** The three programs saltnet runs, as named on that platform. */
export function binaryNames(platform: PlatformId): { daemon: string; walletCli: string; walletRpc: string } {
  const exe = platform.startsWith('windows-') ? '.exe' : '';
  return { daemon: `salviumd${exe}`, walletCli: `salvium-wallet-cli${exe}`, walletRpc: `salvium-wallet-rpc${exe}` };
}

/**
 * The asset name to try for a version that is not pinned (used only with --sha256, and --asset
 * overrides it). These follow the names recent Salvium releases appear to use
 * (`salvium-<version>-ubuntu22.04-linux-x86_64.zip`, `…-win64.zip`); they were taken from
 * third-party download scripts, not checked against a release here, so the error for a 404 says
 * to pass --asset. Pinned versions always use the names recorded in the table.
 */
export function guessAssetName(version: string, platform: PlatformId): string {
  const suffix: Record<PlatformId, string> = {
    'linux-x86_64': 'ubuntu22.04-linux-x86_64',
    'linux-aarch64': 'ubuntu22.04-linux-aarch64',
    'macos-x86_64': 'macos-x86_64',
    'macos-arm64': 'macos-aarch64',
    'windows-x64': 'win64',
  };
  return `salvium-${version}-${suffix[platform]}.zip`;
}

/**
 * The platform an asset file name is built for, judged from the words in it, or undefined when it
 * names none of ours (a 32-bit or ARM Windows build, a GUI, source). For scripts/pin-release.ts.
 */
export function classifyAssetName(name: string): PlatformId | undefined {
  const n = name.toLowerCase();
  if (/gui|source|src\b/.test(n)) return undefined;
  // 32-bit and ARMv7 builds are not ours; test before the 64-bit words so "win32" never matches "win".
  if (/i[36]86|win32|armv7|armhf|x86(?![-_]?64)/.test(n)) return undefined;
  const x64 = /x86[-_]?64|amd64|x64|win64/.test(n);
  const arm64 = /aarch64|arm64|armv8/.test(n);
  if (x64 === arm64) return undefined; // neither, or both: ambiguous
  // macOS first: "darwin" contains "win".
  if (/mac|darwin|osx|apple/.test(n)) return x64 ? 'macos-x86_64' : 'macos-arm64';
  if (/linux|ubuntu|debian/.test(n)) return x64 ? 'linux-x86_64' : 'linux-aarch64';
  if (/win|mingw/.test(n)) return x64 ? 'windows-x64' : undefined;
  return undefined;
}
