// Clients: the organizations served (reference, "What the service does" 1). Names are invented;
// cities are real so addresses read right.
import type { Client } from '../../resources/clients/schema.js';
import { DAY, formatTimestamp, HOUR, NOW, type Random } from '../random.js';
import type { ClientSpec, GeneratorContext } from './context.js';
import { citiesOf, EPA_ID_LETTERS, REGION_NAMES, type City } from './places.js';

export interface ClientPlan {
  record: Client;
  spec: ClientSpec;
  /** The client's home city: most of its sites are there. */
  city: City;
  createdAt: number;
}

/** An EPA ID of the reference's form: state code, one letter, nine digits. */
export function makeEpaId(random: Random, state: string): string {
  const letter = random.pick(EPA_ID_LETTERS[state] ?? ['D']);
  // Federally issued IDs mostly start 0 or 9 (CAD009…, TXD98…); state series start 0.
  let digits = letter === 'D' ? random.pick(['0', '0', '9']) : '0';
  for (let i = 0; i < 8; i++) digits += String(random.int(0, 9));
  return `${state}${letter}${digits}`;
}

/** Lowercase words joined by hyphens, for e-mail domains and hosts under example.com. */
export function slugOf(name: string): string {
  return name
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .split('-')
    .slice(0, 3)
    .join('-');
}

const INDUSTRIES = [
  'Precision Plating',
  'Metal Finishing',
  'Industrial Coatings',
  'Aerospace Components',
  'Printed Circuits',
  'Fleet Services',
  'Powder Coating',
  'Marine Services',
  'Collision Repair',
  'Plastics',
  'Printing',
] as const;
const COMPANY_SUFFIXES = [', Inc.', ' LLC', ' Co.', ' Corp.'] as const;

function clientName(context: GeneratorContext, spec: ClientSpec, city: City, usedNames: Set<string>): string {
  const { random, faker } = context;
  const surname = (): string => {
    let name = faker.person.lastName();
    while (usedNames.has(name)) name = faker.person.lastName();
    usedNames.add(name);
    return name;
  };
  const freeRegions = (REGION_NAMES[spec.state] ?? []).filter((region) => !usedNames.has(region));
  const region = freeRegions.length > 0 ? random.pick(freeRegions) : city.name;
  switch (spec.kind) {
    case 'hhw_program': {
      usedNames.add(region);
      return random.pick([
        `${region} Regional Household Hazardous Waste Program`,
        `${region} Solid Waste Authority`,
        `City of ${city.name} Household Hazardous Waste Program`,
      ]);
    }
    case 'commercial_industrial':
      return `${surname()} ${random.pick(INDUSTRIES)}${random.pick(COMPANY_SUFFIXES)}`;
    case 'laboratory': {
      const name = random.pick([
        `${surname()} Analytical Laboratories`,
        `${surname()} Biosciences`,
        `${region} Public Health Laboratory`,
        `${region} Environmental Testing`,
      ]);
      if (name.startsWith(region)) usedNames.add(region);
      return name;
    }
  }
}

function clientMetadata(random: Random, spec: ClientSpec): Record<string, string> {
  if (random.chance(0.35)) return {};
  switch (spec.kind) {
    case 'hhw_program':
      return { program_code: `HHW-${random.int(100, 999)}`, contract: `RFP-${random.int(2022, 2024)}-${random.int(10, 99)}` };
    case 'commercial_industrial':
      return { erp_customer_id: `C${String(random.int(1000, 99999)).padStart(6, '0')}` };
    case 'laboratory':
      return { po_required: 'true', cost_center: `LAB-${random.int(1000, 9999)}` };
  }
}

export function generateClients(context: GeneratorContext): ClientPlan[] {
  const { random, id, plan } = context;
  const usedNames = new Set<string>();
  return plan.clients.map((spec, index) => {
    const city = random.pick(citiesOf(spec.state));
    const name = clientName(context, spec, city, usedNames);
    const createdAt = random.int(plan.historyStart, plan.clientsUntil);
    // Most records have been touched since creation (portal invitations, contact changes).
    const updatedAt = random.chance(0.5) ? createdAt : random.int(createdAt + HOUR, NOW - DAY);
    const mailbox = spec.kind === 'hhw_program' ? 'hhw-billing' : random.pick(['ap', 'accounts.payable', 'billing', 'invoices']);
    const record: Client = {
      id: id('client'),
      object: 'client',
      name,
      kind: spec.kind,
      epa_id: spec.hasEpaId ? makeEpaId(random, spec.state) : null,
      // billing_email is null when it was never given (as on create); a few clients so.
      billing_email: index % 6 === 5 ? null : `${mailbox}@${slugOf(name)}.example.com`,
      portal_enabled: random.chance(0.75),
      metadata: clientMetadata(random, spec),
      created_at: formatTimestamp(createdAt),
      updated_at: formatTimestamp(updatedAt),
    };
    return { record, spec, city, createdAt };
  });
}
