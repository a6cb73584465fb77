// fast-check cannot read zod, so bodies and queries are generated from the JSON Schema that zod 4
// writes for each endpoint's input (z.toJSONSchema): the same schema the server validates with,
// so a new field is fuzzed as soon as it is added. Hints give realistic values to fields whose
// rules a pattern cannot carry (IDs that exist, known waste codes, facilities), so that generated
// requests also get past validation to the handlers.
import fc from 'fast-check';
import { z } from 'zod';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  enum?: Json[];
  pattern?: string;
  format?: string;
  anyOf?: JsonSchema[];
}

/** Realistic values by field name, mixed in with what the schema alone would give. */
export type Hints = Record<string, readonly Json[]>;

/**
 * One of the values, each equally likely: fc.constantFrom favours the first ones, which would
 * leave the last entries of a list of odd inputs almost never tried.
 */
export function oneOfValues<T>(...values: T[]): fc.Arbitrary<T> {
  return fc.noBias(fc.nat({ max: values.length - 1 })).map((index) => values[index] as T);
}

export function jsonSchemaOf(schema: z.ZodType): JsonSchema {
  return z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
}

function stringArbitrary(schema: JsonSchema): fc.Arbitrary<string> {
  if (schema.format === 'email') return fc.emailAddress();
  if (schema.pattern !== undefined) {
    try {
      return fc.stringMatching(new RegExp(schema.pattern));
    } catch {
      // A pattern fast-check cannot generate from: any string, validation will sort it out.
    }
  }
  return fc.string({ minLength: 1, maxLength: Math.min(schema.maxLength ?? 40, 60) });
}

/** Any JSON value, for fields whose schema says nothing (metadata, written by hand). */
const anyJson: fc.Arbitrary<Json> = fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<Json>;

export function arbitraryOf(schema: JsonSchema, hints: Hints = {}, name = ''): fc.Arbitrary<Json> {
  const hinted = hints[name];
  const own = ownArbitrary(schema, hints);
  return hinted !== undefined && hinted.length > 0 ? fc.oneof({ arbitrary: oneOfValues(...hinted), weight: 3 }, own) : own;
}

function ownArbitrary(schema: JsonSchema, hints: Hints): fc.Arbitrary<Json> {
  if (schema.enum !== undefined) return oneOfValues(...schema.enum);
  if (schema.anyOf !== undefined) return fc.oneof(...schema.anyOf.map((part) => arbitraryOf(part, hints)));
  const types = Array.isArray(schema.type) ? schema.type : schema.type === undefined ? [] : [schema.type];
  if (types.length > 1) return fc.oneof(...types.map((type) => ownArbitrary({ ...schema, type }, hints)));
  switch (types[0]) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer':
      return fc.integer({ min: schema.minimum ?? -1000, max: schema.maximum ?? 100_000 });
    case 'number':
      return fc.double({ noNaN: true, noDefaultInfinity: true });
    case 'string':
      return stringArbitrary(schema);
    case 'array':
      return fc.array(arbitraryOf(schema.items ?? {}, hints), {
        minLength: schema.minItems ?? 0,
        maxLength: Math.min(schema.maxItems ?? 4, 4),
      });
    case 'object': {
      const required = new Set(schema.required ?? []);
      const properties = Object.entries(schema.properties ?? {});
      return fc.record(Object.fromEntries(properties.map(([key, part]) => [key, arbitraryOf(part, hints, key)])), {
        requiredKeys: properties.map(([key]) => key).filter((key) => required.has(key)),
      }) as fc.Arbitrary<Json>;
    }
    default:
      return anyJson;
  }
}

/** Values that tend to break parsers and validators. */
export const TRICKY_VALUES: readonly Json[] = [
  '',
  ' ',
  '\u0000',
  '\ud800',
  'a\udfffb',
  '\u202e\u0041',
  '😀'.repeat(40),
  'é'.repeat(300),
  'x'.repeat(70_000),
  -0,
  2 ** 53 + 1,
  -(2 ** 63),
  5e-324,
  1.7976931348623157e308,
  0.1,
  -1,
  true,
  false,
  null,
  [],
  {},
  [[[[[[[[[[]]]]]]]]]],
  { a: { b: { c: { d: {} } } } },
  '__proto__',
  'constructor',
  '%00',
  '../../etc/passwd',
];

export const TRICKY_KEYS: readonly string[] = [
  '',
  ' ',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'id',
  'object',
  'created_at',
  'a.b',
  'a[0]',
  '0',
  '😀',
  'k'.repeat(300),
];

/** A JSON object with a mutation: a field dropped, replaced with a tricky value, or added. */
export function mutated(body: fc.Arbitrary<Json>): fc.Arbitrary<Json> {
  return fc
    .tuple(
      body,
      fc.nat(),
      oneOfValues('drop', 'replace', 'add', 'nest', 'none'),
      fc.oneof(oneOfValues(...TRICKY_VALUES), fc.jsonValue({ maxDepth: 3 }) as fc.Arbitrary<Json>),
      fc.oneof(oneOfValues(...TRICKY_KEYS), fc.string()),
    )
    .map(([value, index, how, tricky, key]) => {
      if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
      const copy: { [key: string]: Json } = { ...value };
      const keys = Object.keys(copy);
      const target = keys.length > 0 ? (keys[index % keys.length] as string) : key;
      // defineProperty: a key named __proto__ must become a real key of the JSON sent.
      const set = (name: string, item: Json) =>
        Object.defineProperty(copy, name, { value: item, enumerable: true, writable: true, configurable: true });
      if (how === 'drop') delete copy[target];
      else if (how === 'replace') set(target, tricky);
      else if (how === 'add') set(key, tricky);
      else if (how === 'nest') {
        const inner = copy[target];
        if (inner !== null && typeof inner === 'object' && !Array.isArray(inner)) {
          const nested: { [key: string]: Json } = { ...inner };
          Object.defineProperty(nested, key, { value: tricky, enumerable: true, writable: true, configurable: true });
          set(target, nested);
        } else set(target, [tricky]);
      }
      return copy;
    });
}
