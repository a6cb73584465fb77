// Sites: the places a client's work happens. An HHW program's first site is its permanent
// facility, the others are event lots; plants and labs are buildings of the client.
import type { Site } from '../../resources/sites/schema.js';
import { DAY, formatTimestamp, HOUR, NOW } from '../random.js';
import { makeEpaId, type ClientPlan } from './clients.js';
import type { GeneratorContext } from './context.js';
import { citiesOf, type City } from './places.js';

export interface SitePlan {
  record: Site;
  client: ClientPlan;
  createdAt: number;
  /** The client's main site: an HHW program's permanent facility, a plant, a lab building. */
  primary: boolean;
}

const SITE_NAMES = {
  hhw_program: [
    'Permanent HHW Collection Facility',
    '{city} Fairgrounds, North Lot',
    '{city} Transfer Station',
    '{last} High School Parking Lot',
    '{city} Public Works Yard',
    '{city} Park-and-Ride',
  ],
  commercial_industrial: ['Main Plant', 'Plant 2 (Finishing)', 'Warehouse & Shipping', 'Maintenance Shop'],
  laboratory: ['Chemistry Building', 'Life Sciences Annex', 'Central Stockroom', 'QC Laboratory'],
} as const;

function phone(context: GeneratorContext, city: City): string {
  return `(${city.areaCode}) 555-01${String(context.random.int(0, 99)).padStart(2, '0')}`;
}

function accessNotes(context: GeneratorContext, site: { primary: boolean; kind: keyof typeof SITE_NAMES }, city: City): string {
  const { random, faker } = context;
  if (random.chance(0.15)) return '';
  const contact = `${faker.person.firstName()} ${faker.person.lastName()}`;
  const number = phone(context, city);
  if (site.kind === 'hhw_program' && !site.primary) {
    return `Event lot opens 06:30 for setup; cones and signs are in the program trailer. Contact ${contact}, ${number}.`;
  }
  return random.pick([
    `Gate code ${random.int(1000, 9999)}#. Check in at the guard shack; dock hours 06:30–15:00. Contact ${contact}, ${number}.`,
    `Use the north entrance; forklift on site. Ask for ${contact} (EHS), ${number}.`,
    `Loading dock behind the building; badge escort required past the lobby. Contact ${contact}, ${number}.`,
    `Call ${contact} 30 minutes before arrival, ${number}. No deliveries 11:30–12:30.`,
  ]);
}

export function generateSites(context: GeneratorContext, clients: readonly ClientPlan[]): SitePlan[] {
  const { random, faker, id } = context;
  const sites: SitePlan[] = [];
  for (const client of clients) {
    const { kind, state, sites: count } = client.spec;
    const names = SITE_NAMES[kind];
    for (let index = 0; index < count; index++) {
      const primary = index === 0;
      // Event lots spread over the region; plants and labs stay in the client's city.
      const city = kind === 'hhw_program' && !primary ? random.pick(citiesOf(state)) : client.city;
      const name = (names[index % names.length] as string).replace('{city}', city.name).replace('{last}', faker.person.lastName());
      // Generator of record (a manifest's generator: the client's EPA ID, else the site's): a client without an EPA ID
      // ships under its main site's ID; event lots rarely have one.
      const hasEpaId = primary
        ? client.record.epa_id === null || random.chance(kind === 'hhw_program' ? 0.5 : 0.9)
        : random.chance(kind === 'hhw_program' ? 0.15 : 0.8);
      const createdAt = primary
        ? client.createdAt + random.int(HOUR, 3 * DAY)
        : Math.min(client.createdAt + random.int(DAY, 40 * DAY), NOW - DAY);
      const record: Site = {
        id: id('site'),
        object: 'site',
        client: client.record.id,
        name,
        address: {
          line1: faker.location.streetAddress(),
          line2: random.chance(0.2) ? faker.location.secondaryAddress() : null,
          city: city.name,
          state,
          postal_code: random.pick(city.zips),
        },
        epa_id: hasEpaId ? makeEpaId(random, state) : null,
        access_notes: accessNotes(context, { primary, kind }, city),
        metadata: random.chance(0.4) ? { site_code: `${kind === 'laboratory' ? 'BLDG' : 'SITE'}-${random.int(10, 99)}` } : {},
        created_at: formatTimestamp(createdAt),
      };
      sites.push({ record, client, createdAt, primary });
    }
  }
  return sites;
}
