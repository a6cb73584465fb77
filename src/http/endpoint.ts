// An endpoint is one row of the reference's tables: method, path, scope, inputs, output. The same
// definition registers the Hono route, drives the 405 matcher, feeds the auth-matrix tests and
// generates the OpenAPI document (src/openapi); nothing about a route is written twice.
import type { Context } from 'hono';
import type { z } from 'zod';
import type { Scope } from '../auth/scopes.js';
import type { Mint } from '../clock/mint.js';
import type { AccountStore } from '../data/store.js';
import type { ErrorCode } from '../errors.js';
import type { EventType } from '../resources/events/types.js';
import type { ObjectType } from '../schemas/common.js';
import type { Deferred } from '../schemas/deferred.js';
import type { SandboxEnv } from './env.js';

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

type Output<T> = T extends z.ZodType ? z.output<T> : undefined;

export interface HandlerInput<Query, Body> {
  c: Context<SandboxEnv>;
  account: AccountStore;
  /** The `{id}` of the path, when the path has one. */
  id: string;
  query: Query;
  body: Body;
  /** The answer's time: the real clock, or the pinned one (README, "Nothing is kept"; docs/snapshot-tests.md). */
  now: Date;
  /** New IDs and secrets: random, or derived from the request when the clock is pinned. */
  mint: Mint;
}

/** A write's answer (reply()): JSON text, which its Idempotency-Key stores and its events carry. */
export interface WriteReply {
  status: 200 | 201;
  json: string;
  /** The events this write emits, each carrying `json` as its data.object (docs/events-from-writes.md). */
  events?: Events | undefined;
}

/** A read's answer: the UTF-8 bytes of sample records, encoded in advance. It emits nothing. */
export interface ReadReply {
  status: 200;
  json: Uint8Array<ArrayBuffer>;
  events?: undefined;
}

export type Reply = WriteReply | ReadReply;

export interface HandlerError {
  code: ErrorCode;
  /** When the handler gives it, as the OpenAPI document says. */
  when: string;
}

/**
 * The schemas of an endpoint are given deferred (src/schemas/deferred.ts): built when a request
 * first needs them, or the OpenAPI document, never while the sandbox starts.
 */
export interface EndpointSpec<Q extends z.ZodType | undefined, B extends z.ZodType | undefined> {
  /** Named after what it does: listJobs, cancelJob. */
  operationId: string;
  method: HttpMethod;
  /** As in the reference, with `{id}`. */
  path: `/v1/${string}`;
  scope: Scope;
  summary: string;
  /** The object type of the path's `{id}`. */
  pathId?: ObjectType;
  query?: Deferred<Q>;
  body?: Deferred<B>;
  /** Fields of the resource this endpoint cannot change (their 400 says so). */
  readonlyFields?: readonly string[];
  /** Accepts Idempotency-Key (reference, "Endpoints"). */
  idempotent?: boolean;
  /** The events a success may emit and when, for the OpenAPI document; the reply names those it does. */
  emits?: readonly { event: EventType; when: string }[];
  success: { status: 200 | 201; schema: Deferred<z.ZodType>; description: string };
  /**
   * Errors only the handler gives (a body reference that is missing, a state rule), for the
   * OpenAPI document; the errors every endpoint of its kind gives are derived in src/openapi.
   */
  handlerErrors?: readonly HandlerError[];
  handle(input: HandlerInput<Output<Q>, Output<B>>): Reply | Promise<Reply>;
}

export interface Endpoint extends Omit<EndpointSpec<z.ZodType | undefined, z.ZodType | undefined>, 'handle' | 'query' | 'body'> {
  query?: Deferred<z.ZodType>;
  body?: Deferred<z.ZodType>;
  /** The path in Hono's form, `/v1/jobs/:id`. */
  routePath: string;
  handle(input: HandlerInput<unknown, unknown>): Reply | Promise<Reply>;
}

export function defineEndpoint<Q extends z.ZodType | undefined = undefined, B extends z.ZodType | undefined = undefined>(
  spec: EndpointSpec<Q, B>,
): Endpoint {
  return {
    ...spec,
    routePath: spec.path.replace(/\{(\w+)\}/g, ':$1'),
    // Given, a query or body is a schema: its type parameter is undefined only when it is absent.
    query: spec.query as Endpoint['query'],
    body: spec.body as Endpoint['body'],
    handle: spec.handle as Endpoint['handle'],
  };
}

/** One event or more: a write that emits none passes undefined, never an empty list. */
type Events = readonly [EventType, ...EventType[]];

/** A record as the JSON body of a success. */
export function reply(status: 200 | 201, value: unknown, events?: Events): WriteReply {
  return { status, json: JSON.stringify(value), events };
}

/**
 * Which methods each known path answers, for 405 and its Allow header (reference, last line of
 * "Endpoints"). Path segments in braces match any one segment.
 */
export class PathMatcher {
  readonly #patterns: { regex: RegExp; methods: HttpMethod[] }[] = [];

  constructor(endpoints: readonly Endpoint[]) {
    const byPath = new Map<string, HttpMethod[]>();
    for (const endpoint of endpoints) {
      const methods = byPath.get(endpoint.path) ?? [];
      methods.push(endpoint.method);
      byPath.set(endpoint.path, methods);
    }
    for (const [path, methods] of byPath) {
      // The reference's paths hold only letters, `_` and `/` besides their `{id}`: nothing a
      // regular expression reads specially, so the text between is taken as it is.
      const source = path.split(/\{\w+\}/).join('[^/]+');
      this.#patterns.push({ regex: new RegExp(`^${source}$`), methods });
    }
  }

  /** The methods the path answers; empty for an unknown path. */
  allowed(path: string): HttpMethod[] {
    const methods = new Set<HttpMethod>();
    for (const pattern of this.#patterns) {
      if (pattern.regex.test(path)) for (const method of pattern.methods) methods.add(method);
    }
    return [...methods];
  }
}
