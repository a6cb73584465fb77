// The build of a manifest from its job's contents (reference, POST /v1/manifests: "one line per
// profile with waste codes from the contents"). The sample-data generator and the HTTP layer
// both use this function, so a manifest's lines always match its job's containers.
import type { Container } from '../containers/schema.js';
import type { WasteProfile } from '../waste_profiles/schema.js';
import type { ManifestLine } from './schema.js';

/**
 * One line per waste profile, in the order the profiles first appear among `containers` (pass
 * them oldest first). Containers whose contents are not yet profiled (profile null) have no
 * line; nor do containers naming a profile absent from `profilesById`, which cannot happen
 * with records of one account. Quantity is the total net weight, in pounds.
 */
export function buildManifestLines(containers: readonly Container[], profilesById: ReadonlyMap<string, WasteProfile>): ManifestLine[] {
  const lines = new Map<string, ManifestLine>();
  for (const container of containers) {
    if (container.profile === null) continue;
    const line = lines.get(container.profile);
    if (line) {
      line.containers += 1;
      line.quantity += container.weight_lb;
      continue;
    }
    const profile = profilesById.get(container.profile);
    if (!profile) continue;
    lines.set(container.profile, {
      profile: profile.id,
      dot_description: profile.dot_description,
      waste_codes: [...profile.waste_codes],
      containers: 1,
      quantity: container.weight_lb,
      // The e-Manifest unit code for pounds (fixtures/units-of-measure.json): weights are kept in pounds.
      unit: 'P',
    });
  }
  return [...lines.values()];
}
