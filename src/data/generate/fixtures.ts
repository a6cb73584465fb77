// The fixtures the generator draws from, typed once. They are data so that docs, handlers and
// the generator read the same directory of facilities, streams, container kinds and roles.
import containerKindsJson from '../../../fixtures/container-kinds.json' with { type: 'json' };
import crewRolesJson from '../../../fixtures/crew-roles.json' with { type: 'json' };
import facilitiesJson from '../../../fixtures/facilities.json' with { type: 'json' };
import wasteStreamsJson from '../../../fixtures/waste-streams.json' with { type: 'json' };
import type { CLIENT_KINDS } from '../../resources/clients/schema.js';

export type ClientKind = (typeof CLIENT_KINDS)[number];

/** How a receiving facility manages a stream; facilities list the methods they offer. */
export type Management = 'fuel_blending' | 'incineration' | 'stabilization' | 'treatment' | 'recycling' | 'retort';

export interface Facility {
  name: string;
  epa_id: string;
  address: { line1: string; line2: string | null; city: string; state: string; postal_code: string };
  services: Management[];
}

/** A template for waste profiles: one common waste stream with its codes and DOT description. */
export interface WasteStream {
  key: string;
  name: string;
  federal_codes: string[];
  /** State-only codes by state, added to the federal ones for a generator in that state. */
  state_codes: Partial<Record<'CA' | 'TX' | 'WA', string[]>>;
  dot_description: string;
  physical_form: 'liquid' | 'solid' | 'gas';
  client_kinds: ClientKind[];
  /** Packed by a chemist in lab-pack drums: the contents of lab_pack jobs. */
  lab_pack: boolean;
  management: Management;
  /** Kinds from container-kinds.json. */
  container_kinds: string[];
  disposal_cents_per_lb: number;
}

export interface ContainerKind {
  kind: string;
  net_weight_lb: { min: number; max: number };
  handling_fee_cents: number;
}

export interface CrewRole {
  role: string;
  description: string;
}

export const FACILITIES = facilitiesJson as Facility[];
export const WASTE_STREAMS = wasteStreamsJson as WasteStream[];
export const CONTAINER_KINDS = containerKindsJson as ContainerKind[];
export const CREW_ROLES = crewRolesJson as CrewRole[];

export const CONTAINER_KIND_BY_NAME: ReadonlyMap<string, ContainerKind> = new Map(CONTAINER_KINDS.map((kind) => [kind.kind, kind]));

/** The codes a profile of this stream carries for a generator in `state` (federal first). */
export function streamCodes(stream: WasteStream, state: string): string[] {
  const stateCodes = (stream.state_codes as Record<string, string[] | undefined>)[state] ?? [];
  return [...stream.federal_codes, ...stateCodes];
}
