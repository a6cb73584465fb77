import { getEndpoint } from '../endpoints.js';
import { Invoice } from './schema.js';

export const getInvoice = getEndpoint({
  operationId: 'getInvoice',
  collection: 'invoices',
  object: 'invoice',
  scope: 'invoices:read',
  summary: 'Retrieve an invoice',
  item: Invoice,
});
