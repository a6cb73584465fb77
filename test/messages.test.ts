// Issue #8: every message is a sentence for a person. A table of bad inputs, built from the
// sandbox's own OpenAPI document (so a new endpoint, field or filter is covered the day it is
// added), is sent over HTTP to every write endpoint and every list filter; each message must name
// the field, show what was sent and carry none of the validation library's wording.
import { beforeAll, describe, expect, it } from 'vitest';
import { ApiDocument, type Schema } from './document.js';
import { type CallResult, call, testApp } from './helpers.js';

const app = testApp();

let doc: ApiDocument;

beforeAll(async () => {
  doc = await ApiDocument.load(app);
});

const resolve = (schema: Schema): Schema => doc.resolve(schema);
const typeOf = (schema: Schema): string | undefined =>
  Array.isArray(schema.type) ? schema.type.find((type) => type !== 'null') : schema.type;

/** Wording that belongs to the validation library or the implementation, never to a message. */
const LIBRARY_WORDING = [
  /\/\^/,
  /Invalid input/,
  /Invalid option/,
  /Invalid string/,
  /expected one of/i,
  /expected \w+, received/,
  /Too (small|big)/,
  /must match pattern/,
  /zod|ZodError|\$Zod/i,
  /\[object Object\]/,
  /undefined|NaN/,
];

/** How a message must show a sent value: the start of a string, as JSON escapes it; a number as is. */
function shown(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.slice(0, 20)).slice(0, -1);
  if (Array.isArray(value)) return 'array';
  if (value !== null && typeof value === 'object') return 'an object';
  return String(value);
}

interface BadInput {
  /** The body path or query parameter the error must name. */
  param: string;
  value: unknown;
  /** Something else the message must say: the prefix an ID takes, a "Did you mean". */
  says?: string;
}

/** Bad values for one field, chosen from what its schema says it takes. */
function badInputs(param: string, raw: Schema, depth = 0): BadInput[] {
  const schema = resolve(raw);
  const type = typeOf(schema);
  const cases: BadInput[] = [];
  if (type === 'string') {
    cases.push({ param, value: 12345 });
    if (schema.enum !== undefined) {
      const first = schema.enum[0] as string;
      cases.push({ param, value: 'no-such-value\u0007' });
      cases.push({
        param,
        value: first.toUpperCase() === first ? first.toLowerCase() : first.toUpperCase(),
        says: `Did you mean "${first}"?`,
      });
    } else if (schema.pattern?.startsWith('^') && schema.pattern.endsWith('_')) {
      cases.push({ param, value: 'zzz_00000000000000', says: schema.pattern.slice(1) });
    } else if (schema.format !== undefined || schema.pattern !== undefined) {
      cases.push({ param, value: 'not valid ☃ "quoted" \n' });
    }
  } else if (type === 'integer' || type === 'number') {
    cases.push({ param, value: 'twelve' }, { param, value: -1.5 });
  } else if (type === 'boolean') {
    cases.push({ param, value: 'yes' });
  } else if (type === 'array') {
    cases.push({ param, value: 'x'.repeat(200) });
    if (schema.items !== undefined && typeOf(resolve(schema.items)) === 'string') cases.push({ param: `${param}[0]`, value: 404 });
  } else if (type === 'object') {
    cases.push({ param, value: ['a'] });
    if (schema.properties !== undefined && depth < 2) {
      for (const [name, property] of Object.entries(schema.properties)) cases.push(...badInputs(`${param}.${name}`, property, depth + 1));
    }
    if (typeof schema.additionalProperties === 'object') cases.push({ param: `${param}.note`, value: { nested: true } });
  }
  return cases;
}

/** The body with the value set at a dotted path (`address.city`, `waste_codes[0]`). */
function withValue(body: Record<string, unknown>, param: string, value: unknown): Record<string, unknown> {
  const copy = structuredClone(body);
  const keys = param.split(/\.|(?=\[)/).map((segment) => (segment.startsWith('[') ? Number(segment.slice(1, -1)) : segment));
  let target = copy as Record<string | number, unknown>;
  for (const [index, key] of keys.entries()) {
    if (index === keys.length - 1) {
      target[key] = value;
      break;
    }
    const next = target[key];
    if (next === null || typeof next !== 'object') target[key] = typeof keys[index + 1] === 'number' ? [] : {};
    target = target[key] as Record<string | number, unknown>;
  }
  return copy;
}

function expectPersonMessage(result: CallResult, input: BadInput): void {
  const context = `${JSON.stringify(input.value)} → ${result.text}`;
  expect(result.status, context).toBe(400);
  const { message, param } = result.json.error;
  expect(param, context).toBe(input.param);
  expect(message, context).toContain(input.param.length <= 60 ? input.param : input.param.slice(0, 20));
  expect(message, context).toContain(shown(input.value));
  for (const wording of LIBRARY_WORDING) expect(message, context).not.toMatch(wording);
  if (input.says !== undefined) expect(message, context).toContain(input.says);
}

describe('every write endpoint: a bad value of every field gets a message for a person', () => {
  it('covers every write endpoint of the document, each with a working example body', async () => {
    const writes = doc.writes();
    expect(writes.map((write) => write.operationId).sort()).toEqual([
      'cancelJob',
      'createClient',
      'createJob',
      'createManifest',
      'createSite',
      'createWasteProfile',
      'createWebhookEndpoint',
      'updateClient',
      'updateContainer',
      'updateJob',
      'updateSite',
      'updateWasteProfile',
    ]);
    // The base every bad value is put into is itself accepted: errors below are the field's.
    for (const write of writes) {
      const result = await call(app, write.path, { method: write.method, body: write.body });
      expect(result.status, `${write.operationId}: ${result.text}`).toBeLessThan(300);
    }
  });

  it('names the field, shows the value sent, and never uses the library wording', async () => {
    let checked = 0;
    for (const write of doc.writes()) {
      const properties = resolve(write.schema).properties ?? {};
      for (const [field, schema] of Object.entries(properties)) {
        for (const input of badInputs(field, schema)) {
          const result = await call(app, write.path, { method: write.method, body: withValue(write.body, input.param, input.value) });
          expectPersonMessage(result, { ...input, param: input.param });
          checked++;
        }
      }
    }
    // 12 endpoints, 84 bad values today: a table that shrank to nothing would prove nothing.
    expect(checked).toBeGreaterThan(75);
  });

  it('an unknown field close to a known one gets "Did you mean"; the field named "" gets no empty param', async () => {
    for (const write of doc.writes()) {
      const field = Object.keys(resolve(write.schema).properties ?? {})[0] as string;
      const typo = `${field[1]}${field[0]}${field.slice(2)}`;
      const result = await call(app, write.path, { method: write.method, body: { ...write.body, [typo]: 'x' } });
      expect(result.status, result.text).toBe(400);
      expect(result.json.error).toMatchObject({ code: 'parameter_invalid', param: typo });
      expect(result.json.error.message).toBe(`Received unknown parameter: ${typo}. Did you mean "${field}"?`);

      const empty = await call(app, write.path, { method: write.method, body: { ...write.body, '': 'x' } });
      expect(empty.status, empty.text).toBe(400);
      expect(empty.json.error.param).not.toBe('');
      expect(empty.json.error.message).toMatch(/empty name/);
    }
  });
});

describe('every list filter: a bad value gets a message for a person', () => {
  it('covers the nine lists', () => {
    expect(doc.lists()).toHaveLength(9);
  });

  it('names the parameter, shows the value sent, and never uses the library wording', async () => {
    let checked = 0;
    for (const list of doc.lists()) {
      for (const parameter of list.parameters) {
        // Query values are text: the wrong "type" is text that is not a number, a date, an ID.
        const inputs = badInputs(parameter.name, parameter.schema).filter((input) => typeof input.value === 'string');
        if (typeOf(resolve(parameter.schema)) === 'integer') inputs.push({ param: parameter.name, value: 'ten' });
        if (parameter.name === 'starting_after') inputs.push({ param: parameter.name, value: 'unknown-cursor' });
        expect(inputs.length, `${list.path} ${parameter.name}`).toBeGreaterThan(0);
        for (const input of inputs) {
          const result = await call(app, `${list.path}?${new URLSearchParams({ [parameter.name]: String(input.value) })}`);
          expectPersonMessage(result, input);
          checked++;
        }
      }
      const typo = `${list.path}?limt=5`;
      const result = await call(app, typo);
      expect(result.json.error).toMatchObject({ param: 'limt', message: 'Received unknown parameter: limt. Did you mean "limit"?' });
    }
    expect(checked).toBeGreaterThan(25);
  });
});
