// Chain-state snapshots: save a testnet's data dirs once, restore them in well under a second.
export { cacheDir, resolveCacheDir, snapshotsDir, type CacheDirOptions } from '../common/cache-dir.js';
export { SnapshotError, type SnapshotErrorCode } from './errors.js';
export {
  cacheKey,
  cacheKeyDigest,
  canonicalJson,
  fileSha256,
  isValidKey,
  KEY_PATTERN,
  type CacheKeyInput,
} from './key.js';
export {
  MANIFEST_FORMAT_VERSION,
  ManifestSchema,
  ManifestFileSchema,
  ManifestWalletSchema,
  ManifestInputSchema,
  parseManifest,
  summarize,
  type Manifest,
  type ManifestFile,
  type ManifestWallet,
  type ManifestInput,
  type SnapshotSummary,
} from './manifest.js';
export {
  saveSnapshot,
  loadSnapshot,
  listSnapshots,
  removeSnapshot,
  clearSnapshots,
  listCorrupt,
  pruneSnapshots,
  exportSnapshot,
  importArchive,
  type CorruptSnapshot,
  type ImportOptions,
  type SnapshotSource,
  type SaveProgress,
  type SaveSnapshotOptions,
  type LoadSnapshotOptions,
  type LoadSnapshotResult,
} from './store.js';
export { acquireKeyLock, type KeyLockOptions } from './lock.js';
