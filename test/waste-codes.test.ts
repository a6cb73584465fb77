import { describe, expect, it } from 'vitest';
import library from '../fixtures/waste-codes.json' with { type: 'json' };
import { WASTE_CODES, isKnownWasteCode, wasteCode } from '../src/data/waste-codes.js';

interface Entry {
  code: string;
  description: string;
}

const federal: Record<'D' | 'F' | 'K' | 'P' | 'U', Entry[]> = library.federal;
const state: Record<'CA' | 'TX' | 'WA', Entry[]> = library.state;

const FEDERAL_MINIMUMS = { D: 43, F: 28, K: 60, P: 100, U: 150 } as const;
const STATE_PATTERNS = {
  CA: /^\d{3}$/,
  TX: /^\d{4}\d{3}[H123]$/,
  WA: /^W[A-Z0-9]{2,4}$/,
} as const;

const allEntries: Entry[] = [...Object.values(federal).flat(), ...Object.values(state).flat()];

describe('waste-code fixture', () => {
  it.each(Object.keys(FEDERAL_MINIMUMS) as (keyof typeof FEDERAL_MINIMUMS)[])(
    'federal %s list: codes match the list pattern and size is at least the minimum',
    (list) => {
      const entries = federal[list];
      const pattern = new RegExp(`^${list}\\d{3}$`);
      expect(entries.length).toBeGreaterThanOrEqual(FEDERAL_MINIMUMS[list]);
      for (const { code } of entries) {
        expect(code).toMatch(pattern);
        expect(code[0]).toBe(list);
      }
    },
  );

  it('D list is exactly D001-D043', () => {
    const expected = Array.from({ length: 43 }, (_, i) => `D${String(i + 1).padStart(3, '0')}`);
    expect(federal.D.map((e) => e.code)).toEqual(expected);
  });

  it('F list holds exactly the codes of 40 CFR 261.31', () => {
    const expected = [
      ...Array.from({ length: 12 }, (_, i) => `F${String(i + 1).padStart(3, '0')}`),
      'F019',
      'F020',
      'F021',
      'F022',
      'F023',
      'F024',
      'F025',
      'F026',
      'F027',
      'F028',
      'F032',
      'F034',
      'F035',
      'F037',
      'F038',
      'F039',
    ];
    expect(federal.F.map((e) => e.code)).toEqual(expected);
  });

  it.each(Object.keys(STATE_PATTERNS) as (keyof typeof STATE_PATTERNS)[])('%s state codes match their format', (jurisdiction) => {
    expect(state[jurisdiction].length).toBeGreaterThan(0);
    for (const { code } of state[jurisdiction]) expect(code).toMatch(STATE_PATTERNS[jurisdiction]);
  });

  it('state lists are large enough', () => {
    expect(state.CA.length).toBeGreaterThanOrEqual(40);
    expect(state.TX.length).toBeGreaterThanOrEqual(20);
  });

  it('every list is sorted by code', () => {
    for (const entries of [...Object.values(federal), ...Object.values(state)]) {
      const codes = entries.map((e) => e.code);
      expect(codes).toEqual([...codes].sort());
    }
  });

  it('has no duplicate code anywhere in the file', () => {
    const codes = allEntries.map((e) => e.code);
    expect(new Set(codes).size).toBe(codes.length);
    expect(WASTE_CODES.size).toBe(codes.length);
  });

  it('every entry has a non-empty, trimmed description', () => {
    for (const { description } of allEntries) {
      expect(description.length).toBeGreaterThan(0);
      expect(description.trim()).toBe(description);
    }
  });
});

describe('waste-code lookup', () => {
  it('resolves known codes to their descriptions', () => {
    expect(wasteCode('P098')?.description).toMatch(/potassium cyanide/i);
    expect(wasteCode('U002')?.description).toMatch(/acetone/i);
    expect(wasteCode('D001')?.description).toMatch(/ignitable/i);
    expect(wasteCode('F005')?.description).toMatch(/toluene/i);
  });

  it('records jurisdiction and list', () => {
    expect(wasteCode('K048')).toMatchObject({ code: 'K048', jurisdiction: 'federal', list: 'K' });
    expect(wasteCode('551')).toMatchObject({ jurisdiction: 'CA', list: 'state' });
    expect(wasteCode('WT02')).toMatchObject({ jurisdiction: 'WA', list: 'state' });
    const tx = state.TX[0] as { code: string };
    expect(wasteCode(tx.code)).toMatchObject({ jurisdiction: 'TX', list: 'state' });
  });

  it('treats unknown codes as unknown and matches case-sensitively', () => {
    for (const code of ['P999', 'D044', 'd001', 'u002', ' D001', 'D001 ', '', 'F013', 'wt01']) {
      expect(isKnownWasteCode(code)).toBe(false);
      expect(wasteCode(code)).toBeUndefined();
    }
    expect(isKnownWasteCode('D001')).toBe(true);
  });
});
