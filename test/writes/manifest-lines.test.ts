// buildManifestLines with hand-made containers and profiles (reference, POST /v1/manifests: "one
// line per profile with waste codes from the contents"): one line per profile in the order the
// profiles first appear, containers counted, net weights summed in pounds (unit "P"), unprofiled
// containers and unknown profiles left out, and waste codes copied rather than shared. The
// sample-data suite checks the same function against generated data; this one pins each rule
// with literal values, so a mutant of src/resources/manifests/lines.ts cannot hide in the data.
import { describe, expect, it } from 'vitest';
import type { Container } from '../../src/resources/containers/schema.js';
import { buildManifestLines } from '../../src/resources/manifests/lines.js';
import type { WasteProfile } from '../../src/resources/waste_profiles/schema.js';

const SOLVENTS = 'prof_SolventsAAAAAA1';
const BATTERIES = 'prof_BatteriesAAAA2';
const AEROSOLS = 'prof_AerosolsAAAAA3';
const UNKNOWN = 'prof_UnknownAAAAAA4';

function profile(id: string, wasteCodes: string[], dotDescription: string): WasteProfile {
  return {
    id,
    object: 'waste_profile',
    client: 'cli_ClientAAAAAAAA1',
    name: `Profile ${id}`,
    waste_codes: wasteCodes,
    dot_description: dotDescription,
    status: 'approved',
    approved_by: 'Pat Lee',
    created_at: '2026-01-05T10:00:00Z',
    updated_at: '2026-01-05T10:00:00Z',
  };
}

let containerCount = 0;
function container(profileId: string | null, weightLb: number): Container {
  containerCount++;
  return {
    id: `cont_Container${String(containerCount).padStart(5, '0')}`,
    object: 'container',
    job: 'job_JobAAAAAAAAAAA1',
    profile: profileId,
    kind: 'drum_55gal',
    status: 'full',
    weight_lb: weightLb,
    storage_status: null,
    received_at: null,
    created_at: '2026-02-01T08:00:00Z',
  };
}

const profiles = (): Map<string, WasteProfile> =>
  new Map([
    [SOLVENTS, profile(SOLVENTS, ['F003', 'F005'], 'UN1993, Waste Flammable liquids, n.o.s., 3, PG II')],
    [BATTERIES, profile(BATTERIES, ['D008'], 'UN2794, Waste Batteries, wet, filled with acid, 8, PG III')],
    [AEROSOLS, profile(AEROSOLS, ['D001'], 'UN1950, Waste Aerosols, flammable, 2.1')],
  ]);

describe('buildManifestLines', () => {
  it('makes one line per profile, in first-appearance order, counting containers and summing pounds', () => {
    const lines = buildManifestLines(
      [
        container(BATTERIES, 120),
        container(SOLVENTS, 400),
        container(BATTERIES, 80),
        container(SOLVENTS, 385),
        container(BATTERIES, 0),
        container(SOLVENTS, 15),
      ],
      profiles(),
    );
    expect(lines).toEqual([
      {
        profile: 'prof_BatteriesAAAA2',
        dot_description: 'UN2794, Waste Batteries, wet, filled with acid, 8, PG III',
        waste_codes: ['D008'],
        containers: 3,
        quantity: 200,
        unit: 'P',
      },
      {
        profile: 'prof_SolventsAAAAAA1',
        dot_description: 'UN1993, Waste Flammable liquids, n.o.s., 3, PG II',
        waste_codes: ['F003', 'F005'],
        containers: 3,
        quantity: 800,
        unit: 'P',
      },
    ]);
  });

  it('one container makes one line with its own weight', () => {
    expect(buildManifestLines([container(AEROSOLS, 37)], profiles())).toEqual([
      {
        profile: 'prof_AerosolsAAAAA3',
        dot_description: 'UN1950, Waste Aerosols, flammable, 2.1',
        waste_codes: ['D001'],
        containers: 1,
        quantity: 37,
        unit: 'P',
      },
    ]);
  });

  it('leaves out containers not yet profiled, wherever they stand', () => {
    const lines = buildManifestLines(
      [container(null, 500), container(AEROSOLS, 10), container(null, 700), container(AEROSOLS, 5), container(null, 900)],
      profiles(),
    );
    expect(lines.map((line) => [line.profile, line.containers, line.quantity])).toEqual([['prof_AerosolsAAAAA3', 2, 15]]);
  });

  it('leaves out a container with no profile even when the lookup would answer for null', () => {
    // The rule is the container's, not the map's: a lookup that knows a null key changes nothing.
    const lookup = new Map(profiles()) as Map<string | null, WasteProfile>;
    lookup.set(null, profile(UNKNOWN, ['U999'], 'should not appear'));
    const lines = buildManifestLines([container(null, 50), container(SOLVENTS, 20)], lookup as Map<string, WasteProfile>);
    expect(lines.map((line) => [line.profile, line.containers, line.quantity])).toEqual([['prof_SolventsAAAAAA1', 1, 20]]);
  });

  it('leaves out containers naming a profile the lookup does not hold, each time', () => {
    const lines = buildManifestLines(
      [container(UNKNOWN, 300), container(BATTERIES, 40), container(UNKNOWN, 60), container(BATTERIES, 2)],
      profiles(),
    );
    expect(lines.map((line) => [line.profile, line.containers, line.quantity])).toEqual([['prof_BatteriesAAAA2', 2, 42]]);
  });

  it('gives no lines for no containers, only unprofiled ones, or only unknown profiles', () => {
    expect(buildManifestLines([], profiles())).toEqual([]);
    expect(buildManifestLines([container(null, 10), container(null, 20)], profiles())).toEqual([]);
    expect(buildManifestLines([container(UNKNOWN, 10)], profiles())).toEqual([]);
    expect(buildManifestLines([container(SOLVENTS, 10)], new Map())).toEqual([]);
  });

  it("copies the profile's waste codes: changing a line's list leaves the profile alone, and the reverse", () => {
    const lookup = profiles();
    const [line] = buildManifestLines([container(SOLVENTS, 1)], lookup);
    expect(line?.waste_codes).toEqual(['F003', 'F005']);
    line?.waste_codes.push('F001');
    expect(lookup.get(SOLVENTS)?.waste_codes).toEqual(['F003', 'F005']);
    lookup.get(SOLVENTS)?.waste_codes.splice(0, 2, 'D002');
    expect(line?.waste_codes).toEqual(['F003', 'F005', 'F001']);
  });

  it('gives each call lines of its own: two builds share no line or list', () => {
    const lookup = profiles();
    const containers = [container(BATTERIES, 9)];
    const first = buildManifestLines(containers, lookup);
    const second = buildManifestLines(containers, lookup);
    expect(second).toEqual(first);
    expect(second[0]).not.toBe(first[0]);
    expect(second[0]?.waste_codes).not.toBe(first[0]?.waste_codes);
  });

  it('leaves its inputs as they were', () => {
    const lookup = profiles();
    const containers = [container(SOLVENTS, 11), container(SOLVENTS, 12), container(null, 13)];
    const before = structuredClone({ containers, lookup: [...lookup] });
    buildManifestLines(containers, lookup);
    expect({ containers, lookup: [...lookup] }).toEqual(before);
  });
});
