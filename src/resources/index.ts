// The route table of the reference, in its order. A new endpoint is added here and nowhere
// else: routing, 405s, the auth-matrix tests and the OpenAPI document all read this list.
import type { Endpoint } from '../http/endpoint.js';
import { createClient } from './clients/create.js';
import { getClient } from './clients/get.js';
import { listClients } from './clients/list.js';
import { updateClient } from './clients/update.js';
import { getContainer } from './containers/get.js';
import { listContainers } from './containers/list.js';
import { updateContainer } from './containers/update.js';
import { getEvent } from './events/get.js';
import { listEvents } from './events/list.js';
import { getInvoice } from './invoices/get.js';
import { listInvoices } from './invoices/list.js';
import { cancelJob } from './jobs/cancel.js';
import { createJob } from './jobs/create.js';
import { getJob } from './jobs/get.js';
import { listJobs } from './jobs/list.js';
import { updateJob } from './jobs/update.js';
import { createManifest } from './manifests/create.js';
import { getManifest } from './manifests/get.js';
import { listManifests } from './manifests/list.js';
import { createSite } from './sites/create.js';
import { getSite } from './sites/get.js';
import { listSites } from './sites/list.js';
import { updateSite } from './sites/update.js';
import { createWasteProfile } from './waste_profiles/create.js';
import { getWasteProfile } from './waste_profiles/get.js';
import { listWasteProfiles } from './waste_profiles/list.js';
import { updateWasteProfile } from './waste_profiles/update.js';
import { createWebhookEndpoint } from './webhook_endpoints/create.js';
import { deleteWebhookEndpoint } from './webhook_endpoints/delete.js';
import { listWebhookEndpoints } from './webhook_endpoints/list.js';

export const ENDPOINTS: readonly Endpoint[] = [
  listClients,
  createClient,
  getClient,
  updateClient,
  listSites,
  createSite,
  getSite,
  updateSite,
  listWasteProfiles,
  createWasteProfile,
  getWasteProfile,
  updateWasteProfile,
  listJobs,
  createJob,
  getJob,
  updateJob,
  cancelJob,
  listContainers,
  getContainer,
  updateContainer,
  listManifests,
  createManifest,
  getManifest,
  listInvoices,
  getInvoice,
  listWebhookEndpoints,
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  listEvents,
  getEvent,
];
