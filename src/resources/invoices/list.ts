import { enumFilter, idFilter } from '../../schemas/query.js';
import { listEndpoint } from '../endpoints.js';
import { Invoice, INVOICE_STATUSES } from './schema.js';

export const listInvoices = listEndpoint({
  operationId: 'listInvoices',
  collection: 'invoices',
  object: 'invoice',
  scope: 'invoices:read',
  summary: 'List invoices, newest first',
  item: Invoice,
  listName: 'InvoiceList',
  filters: () => ({ client: idFilter('client'), status: enumFilter(INVOICE_STATUSES) }),
  match:
    ({ client, status }) =>
    (invoice) =>
      (client === undefined || invoice.client === client) && (status === undefined || invoice.status === status),
});
