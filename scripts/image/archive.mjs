// An image as a file, written by code as ko and jib write theirs: layers are tar files whose
// entries are sorted, owned by root and dated at one fixed time, so the same inputs give the same
// bytes, the same digests and so the same image ID (the digest of the configuration). The file is
// an OCI image layout (oci-layout, index.json, blobs/sha256/…) that also holds Docker's
// manifest.json, so `docker load` takes it as it is and `skopeo copy oci-archive:…` pushes it.
import { createHash } from 'node:crypto';
import { posix } from 'node:path';
import { pack } from 'tar-stream';

const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');

/** A tar file of these entries, as bytes: `{ path, body?, mode?, type? }`, parents made. */
export async function tarOf(entries, mtime) {
  const byPath = new Map();
  for (const entry of entries) {
    for (let parent = posix.dirname(entry.path); parent !== '/'; parent = posix.dirname(parent))
      if (!byPath.has(parent)) byPath.set(parent, { path: parent, type: 'directory', mode: 0o755 });
    byPath.set(entry.path, entry);
  }
  const sorted = [...byPath.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const archive = pack();
  const chunks = [];
  archive.on('data', (chunk) => chunks.push(chunk));
  const ended = new Promise((resolve, reject) => {
    archive.on('end', resolve);
    archive.on('error', reject);
  });
  for (const entry of sorted) {
    const type = entry.type ?? 'file';
    const header = {
      // Layer paths are relative, as `docker save` writes them.
      name: entry.path.slice(1) + (type === 'directory' ? '/' : ''),
      type,
      mode: entry.mode ?? 0o644,
      mtime,
      uid: 0,
      gid: 0,
      uname: 'root',
      gname: 'root',
    };
    await new Promise((resolve, reject) =>
      archive.entry(type === 'file' ? header : { ...header, size: 0 }, type === 'file' ? entry.body : undefined, (error) =>
        error ? reject(error) : resolve(),
      ),
    );
  }
  archive.finalize();
  await ended;
  return Buffer.concat(chunks);
}

/**
 * The image file: `layers` as tar bytes (uncompressed, so their digests are their diff IDs),
 * `config` the image configuration without its rootfs (added here), `tags` the names to load it
 * under. Returns the file's bytes and the image ID.
 */
export async function imageArchive({ layers, config, tags, created }) {
  const blobs = new Map();
  const blob = (bytes, mediaType) => {
    const digest = sha256(bytes);
    blobs.set(digest, bytes);
    return { mediaType, digest: `sha256:${digest}`, size: bytes.length };
  };
  const json = (value) => Buffer.from(JSON.stringify(value));

  const layerDescriptors = layers.map((layer) => blob(layer, 'application/vnd.oci.image.layer.v1.tar'));
  const configDescriptor = blob(
    json({ ...config, rootfs: { type: 'layers', diff_ids: layerDescriptors.map((layer) => layer.digest) } }),
    'application/vnd.oci.image.config.v1+json',
  );
  const manifestDescriptor = blob(
    json({ schemaVersion: 2, mediaType: 'application/vnd.oci.image.manifest.v1+json', config: configDescriptor, layers: layerDescriptors }),
    'application/vnd.oci.image.manifest.v1+json',
  );
  const index = {
    schemaVersion: 2,
    mediaType: 'application/vnd.oci.image.index.v1+json',
    manifests: tags.map((tag) => ({
      ...manifestDescriptor,
      annotations: { 'io.containerd.image.name': tag, 'org.opencontainers.image.ref.name': tag.split(':').pop() },
    })),
  };
  const path = (descriptor) => `blobs/sha256/${descriptor.digest.slice('sha256:'.length)}`;
  const dockerManifest = [{ Config: path(configDescriptor), RepoTags: tags, Layers: layerDescriptors.map(path) }];

  const files = [
    { path: '/oci-layout', body: json({ imageLayoutVersion: '1.0.0' }) },
    { path: '/index.json', body: json(index) },
    { path: '/manifest.json', body: json(dockerManifest) },
    ...[...blobs].map(([digest, body]) => ({ path: `/blobs/sha256/${digest}`, body })),
  ];
  return { bytes: await tarOf(files, created), id: configDescriptor.digest };
}
