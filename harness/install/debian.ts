// Which Debian package ships a shared library the Salvium programs need. The release builds are
// linked against Debian 12 (bookworm) libraries; the direct ones are the list in the release's
// README (`apt-get install -y libboost-chrono1.74.0 …`), the others are what those pull in. Each
// name was checked with `dpkg -S` on Debian 12; Ubuntu 24.04 ships most under the same names.

/** soname → Debian 12 package. */
export const DEBIAN_PACKAGES: Readonly<Record<string, string>> = {
  'libboost_chrono.so.1.74.0': 'libboost-chrono1.74.0',
  'libboost_filesystem.so.1.74.0': 'libboost-filesystem1.74.0',
  'libboost_program_options.so.1.74.0': 'libboost-program-options1.74.0',
  'libboost_regex.so.1.74.0': 'libboost-regex1.74.0',
  'libboost_serialization.so.1.74.0': 'libboost-serialization1.74.0',
  'libboost_thread.so.1.74.0': 'libboost-thread1.74.0',
  'libhidapi-libusb.so.0': 'libhidapi-libusb0',
  'libsodium.so.23': 'libsodium23',
  'libssl.so.3': 'libssl3',
  'libcrypto.so.3': 'libssl3',
  'libunbound.so.8': 'libunbound8',
  'libzmq.so.5': 'libzmq5',
  'libreadline.so.8': 'libreadline8',
  'libusb-1.0.so.0': 'libusb-1.0-0',
  // pulled in by the ones above
  'libpgm-5.3.so.0': 'libpgm-5.3-0',
  'libnorm.so.1': 'libnorm1',
  'libicuuc.so.72': 'libicu72',
  'libicui18n.so.72': 'libicu72',
  'libicudata.so.72': 'libicu72',
  'libevent-2.1.so.7': 'libevent-2.1-7',
  'libbsd.so.0': 'libbsd0',
  'libmd.so.0': 'libmd0',
  'libtinfo.so.6': 'libtinfo6',
  'libgssapi_krb5.so.2': 'libgssapi-krb5-2',
  'libkrb5.so.3': 'libkrb5-3',
  'libk5crypto.so.3': 'libk5crypto3',
  'libkrb5support.so.0': 'libkrb5support0',
  'libcom_err.so.2': 'libcom-err2',
  'libkeyutils.so.1': 'libkeyutils1',
  'libhogweed.so.6': 'libhogweed6',
  'libnettle.so.8': 'libnettle8',
  'libgmp.so.10': 'libgmp10',
  'libudev.so.1': 'libudev1',
  'libstdc++.so.6': 'libstdc++6',
  'libgcc_s.so.1': 'libgcc-s1',
};

/** The sonames `ldd` reports as `not found`, in its order, each once. */
export function notFoundLibraries(lddOutput: string): string[] {
  const found = new Set<string>();
  for (const line of lddOutput.split('\n')) {
    const m = /^\s*(\S+)\s+=>\s+not found\s*$/.exec(line);
    if (m) found.add(m[1] as string);
  }
  return [...found];
}

export interface PackageAdvice {
  /** Debian packages to install, sorted, each once. */
  packages: string[];
  /** Libraries no package of the table ships. */
  unknown: string[];
}

export function packagesFor(libraries: readonly string[]): PackageAdvice {
  const packages = new Set<string>();
  const unknown: string[] = [];
  for (const lib of libraries) {
    const pkg = DEBIAN_PACKAGES[lib];
    if (pkg) packages.add(pkg);
    else unknown.push(lib);
  }
  return { packages: [...packages].sort(), unknown };
}
