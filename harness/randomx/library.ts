// RandomX from the machine's own library (Debian's `librandomx0`: RandomX 1.1.10, which hashes exactly as the
// external/randomx that Salvium v1.1.3c builds: blocks mined with it are accepted at any fixed difficulty), reached
// through koffi. Memory is passed as addresses (uintptr_t), so that one dataset can serve every thread, and the long
// calls (a dataset range, a hash, a file read into the dataset) run on libuv's threads: the event loop stays free.
// Missing library, or a platform koffi has no build for: loadRandomx answers why, and saltnet mines with the daemon's
// own miner instead.
import { createRequire } from 'node:module';
/** An address in this process (user space fits a JS number exactly). */
export type Address = number;

export interface RandomxLib {
  /** Where the library was found (its name as given to the dynamic loader). */
  readonly path: string;
  /** randomx_get_flags(): the machine's best flags (JIT, hard AES, Argon2 SIMD), without FULL_MEM. */
  readonly flags: number;
  /** Items of the full dataset (64 bytes each: 2080 MiB in all). */
  readonly itemCount: number;
  allocCache(flags: number): Address;
  initCache(cache: Address, key: Buffer): Promise<void>;
  releaseCache(cache: Address): void;
  /**
   * randomx_alloc_dataset on a libuv thread: in reserved huge pages the kernel zeroes all 2 GiB before it returns
   * (~0.2 s), which must not hold the event loop.
   */
  allocDataset(flags: number): Promise<Address>;
  /** allocDataset, or 0 where it cannot (RANDOMX_FLAG_LARGE_PAGES with too few huge pages reserved). */
  tryAllocDataset(flags: number): Promise<Address>;
  datasetMemory(dataset: Address): Address;
  initDataset(dataset: Address, cache: Address, start: number, count: number): Promise<void>;
  releaseDataset(dataset: Address): void;
  createVm(flags: number, cache: Address, dataset: Address): Address;
  destroyVm(vm: Address): void;
  /** One hash of `input` into `out` (32 bytes), on a libuv thread. */
  hash(vm: Address, input: Buffer, out: Buffer): Promise<void>;
  hashSync(vm: Address, input: Buffer, out: Buffer): void;
  /** Ask the kernel for transparent huge pages over [addr, addr+len): RandomX's full mode hashes ~1.7x faster. */
  adviseHugePages(addr: Address, len: number): boolean;
  /** pread/pwrite between a file and memory, on a libuv thread; the bytes moved. */
  readInto(fd: number, addr: Address, len: number, offset: number): Promise<number>;
  writeFrom(fd: number, addr: Address, len: number, offset: number): Promise<number>;
}

/** RANDOMX_FLAG_FULL_MEM: a VM over the dataset rather than the cache. */
export const FLAG_FULL_MEM = 4;
/** RANDOMX_FLAG_LARGE_PAGES: memory from the machine's reserved huge pages (vm.nr_hugepages). */
export const FLAG_LARGE_PAGES = 1;
/** Library names tried in order; SALTNET_LIBRANDOMX names the one file to load instead. */
const NAMES = ['librandomx.so.0', 'librandomx.so', 'librandomx.dylib'];
const MADV_HUGEPAGE = 14;
const HUGE_PAGE = 2 * 1024 * 1024;

type Loaded = RandomxLib | { missing: string };
let loaded: Loaded | undefined;

/** The library, loaded once per process, or why it cannot be. */
export function loadRandomx(env: NodeJS.ProcessEnv = process.env): Loaded {
  loaded ??= loadRandomxFrom(env);
  return loaded;
}

type Fn = ((...args: unknown[]) => unknown) & { async: (...args: unknown[]) => void };

/** The library as `env` finds it, loaded again (loadRandomx keeps the first answer of the process). */
export function loadRandomxFrom(env: NodeJS.ProcessEnv): Loaded {
  let koffi: typeof import('koffi');
  try {
    // A native module: required where it is needed, not at every start.
    koffi = createRequire(import.meta.url)('koffi') as typeof import('koffi');
  } catch (err) {
    return { missing: `koffi cannot load on this platform (${(err as Error).message.split('\n')[0]})` };
  }
  const names = env.SALTNET_LIBRANDOMX ? [env.SALTNET_LIBRANDOMX] : NAMES;
  let lib: ReturnType<typeof koffi.load> | undefined;
  let path = '';
  const tried: string[] = [];
  for (const name of names) {
    try {
      lib = koffi.load(name);
      path = name;
      break;
    } catch (err) {
      tried.push(`${name}: ${(err as Error).message.split('\n')[0]}`);
    }
  }
  if (!lib)
    return {
      missing: `librandomx is not installed (${tried.join('; ')}); on Debian or Ubuntu: apt-get install librandomx0`,
    };
  let libc: ReturnType<typeof koffi.load>;
  try {
    libc = koffi.load(process.platform === 'darwin' ? 'libSystem.dylib' : 'libc.so.6');
  } catch (err) {
    return { missing: `the C library cannot be loaded (${(err as Error).message.split('\n')[0]})` };
  }
  return bind(path, lib, libc);
}

type Library = ReturnType<(typeof import('koffi'))['load']>;

/** The functions saltnet calls, declared over addresses. */
function bind(path: string, lib: Library, libc: Library): RandomxLib {
  const rx = (sig: string): Fn => lib.func(sig) as unknown as Fn;
  const c = (sig: string): Fn => libc.func(sig) as unknown as Fn;
  const getFlags = rx('int randomx_get_flags()');
  const itemCount = rx('unsigned long randomx_dataset_item_count()');
  const allocCache = rx('uintptr_t randomx_alloc_cache(int flags)');
  const initCache = rx('void randomx_init_cache(uintptr_t cache, const void *key, size_t keySize)');
  const releaseCache = rx('void randomx_release_cache(uintptr_t cache)');
  const allocDataset = rx('uintptr_t randomx_alloc_dataset(int flags)');
  const datasetMemory = rx('uintptr_t randomx_get_dataset_memory(uintptr_t dataset)');
  const initDataset = rx(
    'void randomx_init_dataset(uintptr_t dataset, uintptr_t cache, unsigned long start, unsigned long count)',
  );
  const releaseDataset = rx('void randomx_release_dataset(uintptr_t dataset)');
  const createVm = rx('uintptr_t randomx_create_vm(int flags, uintptr_t cache, uintptr_t dataset)');
  const destroyVm = rx('void randomx_destroy_vm(uintptr_t vm)');
  const calculateHash = rx('void randomx_calculate_hash(uintptr_t vm, const void *input, size_t size, void *out)');
  const madvise = c('int madvise(uintptr_t addr, size_t len, int advice)');
  const pread = c('intptr_t pread(int fd, uintptr_t buf, size_t count, int64_t offset)');
  const pwrite = c('intptr_t pwrite(int fd, uintptr_t buf, size_t count, int64_t offset)');
  const later = <T>(fn: Fn, ...args: unknown[]): Promise<T> =>
    new Promise((resolve, reject) => {
      fn.async(...args, (err: unknown, value: T) => (err ? reject(err as Error) : resolve(value)));
    });
  const address = (v: unknown): Address => {
    const n = Number(v);
    if (!n) throw new Error('RandomX could not allocate its memory (out of memory?)');
    return n;
  };
  return {
    path,
    flags: getFlags() as number,
    itemCount: Number(itemCount()),
    allocCache: (flags) => address(allocCache(flags)),
    initCache: (cache, key) => later(initCache, cache, key, key.length),
    releaseCache: (cache) => void releaseCache(cache),
    allocDataset: async (flags) => address(await later(allocDataset, flags)),
    tryAllocDataset: async (flags) => Number(await later(allocDataset, flags)),
    datasetMemory: (dataset) => address(datasetMemory(dataset)),
    initDataset: (dataset, cache, start, count) => later(initDataset, dataset, cache, start, count),
    releaseDataset: (dataset) => void releaseDataset(dataset),
    createVm: (flags, cache, dataset) => address(createVm(flags, cache, dataset)),
    destroyVm: (vm) => void destroyVm(vm),
    hash: (vm, input, out) => later(calculateHash, vm, input, input.length, out),
    hashSync: (vm, input, out) => void calculateHash(vm, input, input.length, out),
    adviseHugePages: (addr, len) => {
      // Only whole huge pages inside the range: madvise wants a page-aligned start.
      const start = Math.ceil(addr / HUGE_PAGE) * HUGE_PAGE;
      const usable = Math.floor((addr + len - start) / HUGE_PAGE) * HUGE_PAGE;
      return usable > 0 && madvise(start, usable, MADV_HUGEPAGE) === 0;
    },
    readInto: async (fd, addr, len, offset) => Number(await later<number | bigint>(pread, fd, addr, len, offset)),
    writeFrom: async (fd, addr, len, offset) => Number(await later<number | bigint>(pwrite, fd, addr, len, offset)),
  };
}
