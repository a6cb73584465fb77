// What every resource generator is handed: the account's plan and a random stream of its own.
import type { Faker } from '@faker-js/faker';
import type { JobStatus } from '../../resources/jobs/schema.js';
import type { AccountName } from '../dataset.js';
import { createFaker, createIdMaker, createRandom, type IdMaker, type Random } from '../random.js';
import type { ClientKind } from './fixtures.js';

export interface ClientSpec {
  kind: ClientKind;
  state: string;
  /** Whether the client is the generator of record with its own EPA ID (reference, client.epa_id). */
  hasEpaId: boolean;
  sites: number;
}

/** The shape of one account's data set: how many of what, where. */
export interface AccountPlan {
  name: AccountName;
  clients: readonly ClientSpec[];
  jobs: Readonly<Record<JobStatus, number>>;
  /** Containers are topped up on hhw events until there are at least this many. */
  minContainers: number;
  webhookEndpoints: number;
  /** How many crew members of each role the account employs. */
  roster: Readonly<Record<string, number>>;
  /** Clients are created from here on (seconds). */
  historyStart: number;
  /** Clients are created until here (seconds). */
  clientsUntil: number;
}

export interface GeneratorContext {
  plan: AccountPlan;
  random: Random;
  faker: Faker;
  id: IdMaker;
}

/**
 * Each resource of each account draws from its own stream derived from the one seed
 * (`<seed>:<account>:<resource>`): a change to how containers are made then leaves the IDs of
 * clients, sites and jobs that docs quote as they were.
 */
export function createContext(seed: string, plan: AccountPlan, resource: string, usedIds: Set<string>): GeneratorContext {
  const random = createRandom(`${seed}:${plan.name}:${resource}`);
  return { plan, random, faker: createFaker(random), id: createIdMaker(random, usedIds) };
}
