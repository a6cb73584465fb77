// Real cities with ZIP codes of their own and local area codes, so that a sample address reads
// right (faker's en_US cities are invented). Phone numbers use the 555-01xx block set aside for
// fiction, so no sample number rings anyone.
export interface City {
  name: string;
  zips: readonly string[];
  areaCode: string;
}

export const CITIES_BY_STATE: Readonly<Record<string, readonly City[]>> = {
  CA: [
    { name: 'Sacramento', zips: ['95811', '95815', '95828'], areaCode: '916' },
    { name: 'Fresno', zips: ['93706', '93721', '93725'], areaCode: '559' },
    { name: 'Stockton', zips: ['95202', '95206'], areaCode: '209' },
    { name: 'Oakland', zips: ['94607', '94621'], areaCode: '510' },
    { name: 'San Jose', zips: ['95112', '95131'], areaCode: '408' },
    { name: 'Riverside', zips: ['92501', '92507'], areaCode: '951' },
    { name: 'Bakersfield', zips: ['93301', '93308'], areaCode: '661' },
    { name: 'Modesto', zips: ['95354', '95358'], areaCode: '209' },
    { name: 'Santa Rosa', zips: ['95401', '95407'], areaCode: '707' },
    { name: 'Salinas', zips: ['93901', '93905'], areaCode: '831' },
  ],
  WA: [
    { name: 'Tacoma', zips: ['98402', '98409', '98421'], areaCode: '253' },
    { name: 'Spokane', zips: ['99201', '99202', '99216'], areaCode: '509' },
    { name: 'Everett', zips: ['98201', '98203'], areaCode: '425' },
    { name: 'Kent', zips: ['98032'], areaCode: '253' },
    { name: 'Yakima', zips: ['98901', '98902'], areaCode: '509' },
    { name: 'Vancouver', zips: ['98660', '98661'], areaCode: '360' },
    { name: 'Bellingham', zips: ['98225', '98226'], areaCode: '360' },
    { name: 'Olympia', zips: ['98501', '98502'], areaCode: '360' },
  ],
  OR: [
    { name: 'Portland', zips: ['97201', '97210', '97217', '97230'], areaCode: '503' },
    { name: 'Salem', zips: ['97301', '97302'], areaCode: '503' },
    { name: 'Eugene', zips: ['97401', '97402'], areaCode: '541' },
    { name: 'Medford', zips: ['97501', '97504'], areaCode: '541' },
    { name: 'Bend', zips: ['97701', '97702'], areaCode: '541' },
    { name: 'Hillsboro', zips: ['97123', '97124'], areaCode: '503' },
  ],
  TX: [
    { name: 'Austin', zips: ['78701', '78744'], areaCode: '512' },
    { name: 'San Antonio', zips: ['78201', '78219'], areaCode: '210' },
    { name: 'Houston', zips: ['77002', '77029'], areaCode: '713' },
    { name: 'Dallas', zips: ['75201', '75212'], areaCode: '214' },
    { name: 'Fort Worth', zips: ['76102', '76106'], areaCode: '817' },
    { name: 'Corpus Christi', zips: ['78401', '78405'], areaCode: '361' },
  ],
};

export function citiesOf(state: string): readonly City[] {
  const cities = CITIES_BY_STATE[state];
  if (!cities) throw new Error(`no sample cities for state ${state}`);
  return cities;
}

/** Invented regional names for public programs, so no real agency is quoted. */
export const REGION_NAMES: Readonly<Record<string, readonly string[]>> = {
  CA: ['Tri-Valley', 'Sierra Foothills', 'Redwood Coast', 'Delta Counties', 'Central Coast'],
  WA: ['North Sound', 'Mid-Columbia', 'South Puget', 'Inland Empire'],
  OR: ['Upper Willamette', 'Rogue Valley', 'High Desert', 'Columbia Gorge'],
  TX: ['Hill Country', 'Coastal Bend', 'Brazos Valley', 'Big Country'],
};

/** EPA ID letters seen in each state's IDs (D: federal issue; L, H, Q, R: state-issued series). */
export const EPA_ID_LETTERS: Readonly<Record<string, readonly string[]>> = {
  CA: ['D', 'D', 'L', 'R'],
  WA: ['D', 'D', 'H', 'R'],
  OR: ['D', 'D', 'Q', 'R'],
  TX: ['D', 'D', 'R', 'R'],
};
