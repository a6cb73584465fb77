// The directory of receiving facilities (fixtures/facilities.json): a manifest's
// designated_facility must be one of them (docs/sample-data.md; any other is a 400).
import { FACILITIES, type Facility } from './generate/fixtures.js';

const BY_EPA_ID: ReadonlyMap<string, Facility> = new Map(FACILITIES.map((facility) => [facility.epa_id, facility]));

export function facilityByEpaId(epaId: string): Facility | undefined {
  return BY_EPA_ID.get(epaId);
}

/** Every EPA ID of the directory, in its order: for messages that list or suggest them. */
export const FACILITY_EPA_IDS: readonly string[] = [...BY_EPA_ID.keys()];
