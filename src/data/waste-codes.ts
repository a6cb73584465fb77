// Waste-code library: the federal RCRA codes of 40 CFR 261 (D, F, K, P, U lists) and the
// state-only codes of California, Texas and Washington, kept as data in
// fixtures/waste-codes.json and indexed once, at module load, into a single Map.
import library from '../../fixtures/waste-codes.json' with { type: 'json' };

export type WasteCodeJurisdiction = 'federal' | 'CA' | 'TX' | 'WA';
export type WasteCodeList = 'D' | 'F' | 'K' | 'P' | 'U' | 'state';

export interface WasteCode {
  code: string;
  jurisdiction: WasteCodeJurisdiction;
  list: WasteCodeList;
  description: string;
}

interface WasteCodeEntry {
  code: string;
  description: string;
}

const FEDERAL_LISTS = ['D', 'F', 'K', 'P', 'U'] as const;
const STATES = ['CA', 'TX', 'WA'] as const;

function buildIndex(): ReadonlyMap<string, WasteCode> {
  const index = new Map<string, WasteCode>();
  const add = (entry: WasteCodeEntry, jurisdiction: WasteCodeJurisdiction, list: WasteCodeList): void => {
    if (index.has(entry.code)) throw new Error(`waste-codes.json: duplicate code ${entry.code}`);
    index.set(entry.code, Object.freeze({ code: entry.code, jurisdiction, list, description: entry.description }));
  };
  for (const list of FEDERAL_LISTS) {
    for (const entry of library.federal[list]) add(entry, 'federal', list);
  }
  for (const state of STATES) {
    for (const entry of library.state[state]) add(entry, state, 'state');
  }
  return index;
}

/** Every known waste code, keyed by its exact (case-sensitive) code. */
export const WASTE_CODES: ReadonlyMap<string, WasteCode> = buildIndex();

export function isKnownWasteCode(code: string): boolean {
  return WASTE_CODES.has(code);
}

export function wasteCode(code: string): WasteCode | undefined {
  return WASTE_CODES.get(code);
}
