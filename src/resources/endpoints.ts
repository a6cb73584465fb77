// The two read shapes every resource shares: a paged list and a get by ID. Each resource's
// list.ts / get.ts calls these with its own path, scope, filters and schema.
import type { z } from '@hono/zod-openapi';
import type { Scope } from '../auth/scopes.js';
import { PageCache } from '../data/page-cache.js';
import type { Collection } from '../data/prebuilt.js';
import type { AccountStore, ResourceIndex } from '../data/store.js';
import { ApiError, resourceMissing } from '../errors.js';
import { defineEndpoint, type Endpoint } from '../http/endpoint.js';
import { quoted } from '../http/messages.js';
import { ID_PREFIXES, listSchema, type ObjectType, objectWords } from '../schemas/common.js';
import { type Deferred, deferred } from '../schemas/deferred.js';
import { listQuery, PAGE_SIZE_DEFAULT } from '../schemas/query.js';

export type { Collection } from '../data/prebuilt.js';

/**
 * One cache of built pages for every list, so the whole stays within 4 MiB and 2,048 pages
 * however many distinct queries arrive (a Workers isolate has 128 MB in all); a page is rebuilt
 * 30 seconds after it was built, so a flood of distinct queries leaves nothing behind.
 */
const pages = new PageCache(4 * 1024 * 1024, { maxEntries: 2048, maxAgeMs: 30_000 });

/** The cache's size and weight, read-only, for the tests that hold it to its bounds. */
export const listPageCache: Pick<PageCache, 'size' | 'bytes'> = pages;

type RecordOf<C extends Collection> = AccountStore[C] extends ResourceIndex<infer T> ? T : never;

interface ListSpec<C extends Collection, S extends z.ZodRawShape> {
  operationId: string;
  collection: C;
  object: ObjectType;
  scope: Scope;
  summary: string;
  item: Deferred<z.ZodType>;
  listName: string;
  /** The filters' schemas, built with the rest of the query's on its first request; none if absent. */
  filters?: () => S;
  /**
   * The filter of a query, or undefined for every record. A list of several filters tests each
   * record against the ones given, even when none is: a page stops one past its limit, so that is
   * at most 101 calls, and each page is built once (src/data/page-cache.ts).
   */
  match(query: z.output<z.ZodObject<S>>): ((record: RecordOf<C>) => boolean) | undefined;
}

export function listEndpoint<C extends Collection, S extends z.ZodRawShape>(spec: ListSpec<C, S>): Endpoint {
  const query = deferred(() => listQuery(spec.filters?.() ?? ({} as S)));
  return defineEndpoint({
    operationId: spec.operationId,
    method: 'GET',
    path: `/v1/${spec.collection}`,
    scope: spec.scope,
    summary: spec.summary,
    query,
    success: {
      status: 200,
      schema: deferred(() => listSchema(spec.item(), spec.listName)),
      description: `A page of ${spec.object} records`,
    },
    handle({ account, query: parsed }) {
      const index = account[spec.collection] as unknown as ResourceIndex<RecordOf<C>>;
      const {
        limit,
        starting_after: startingAfter,
        ...filters
      } = parsed as {
        limit?: number;
        starting_after?: string;
      } & z.output<z.ZodObject<S>>;
      if (startingAfter !== undefined && !index.has(startingAfter)) {
        throw new ApiError('parameter_invalid', {
          param: 'starting_after',
          message: `Invalid starting_after: must be the ID of a ${objectWords(spec.object)} of this account (${ID_PREFIXES[spec.object]}_…), such as the previous page's next_cursor; received ${quoted(startingAfter)}.`,
        });
      }
      // The parsed query in schema order names the page: `limit=100` and `limit=0100` share it.
      const cacheKey = `${account.seed}\u0000${account.name}\u0000${spec.collection}\u0000${JSON.stringify(parsed)}`;
      let body = pages.get(cacheKey);
      if (body === undefined) {
        body = index.page(spec.match(filters as z.output<z.ZodObject<S>>), limit ?? PAGE_SIZE_DEFAULT, startingAfter);
        pages.set(cacheKey, body);
      }
      return { status: 200, json: body };
    },
  });
}

interface GetSpec<C extends Collection> {
  operationId: string;
  collection: C;
  object: ObjectType;
  scope: Scope;
  summary: string;
  item: Deferred<z.ZodType>;
}

export function getEndpoint<C extends Collection>(spec: GetSpec<C>): Endpoint {
  return defineEndpoint({
    operationId: spec.operationId,
    method: 'GET',
    path: `/v1/${spec.collection}/{id}`,
    pathId: spec.object,
    scope: spec.scope,
    summary: spec.summary,
    success: { status: 200, schema: spec.item, description: `The ${spec.object}` },
    handle({ account, id }) {
      const bytes = account[spec.collection].bytes(id);
      if (bytes === undefined) throw resourceMissing(spec.object, id);
      return { status: 200, json: bytes };
    },
  });
}

/** A record of the account by ID, or a 404 naming the field it came from. */
export function findRecord<C extends Collection>(
  account: AccountStore,
  collection: C,
  object: ObjectType,
  id: string,
  param = 'id',
): RecordOf<C> {
  const record = (account[collection] as unknown as ResourceIndex<RecordOf<C>>).get(id);
  if (record === undefined) throw resourceMissing(object, id, param);
  return record;
}
