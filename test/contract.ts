// The OpenAPI document as the contract every test response is held to: ajv (JSON Schema 2020-12,
// the dialect of OpenAPI 3.1) validates bodies against the document's own schemas, and an error
// status the document does not list for the operation fails the test that met it.
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { ValidateFunction } from 'ajv';
import { DEFAULT_KEYS, workingKey } from '../src/auth/keys.js';
import { DEFAULT_SEED } from '../src/data/dataset.js';
import { generateSampleData } from '../src/data/generate/index.js';
import { SampleStore } from '../src/data/store.js';
import { buildOpenApiDocument } from '../src/openapi/document.js';
import type { ReadResponse } from './response.js';

type Operation = { operationId: string; responses: Record<string, unknown> };
type OpenApiDocument = { paths: Record<string, Record<string, Operation>>; components: unknown };

/** The document as /openapi.json serves it, less `servers`. */
export const contractDocument = buildOpenApiDocument(
  SampleStore.fromData(generateSampleData(DEFAULT_SEED)).accounts.A,
  workingKey(DEFAULT_KEYS),
) as unknown as OpenApiDocument;

const DOCUMENT_ID = 'https://sandbox.test/openapi.json';
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats.default(ajv);
ajv.addSchema(contractDocument, DOCUMENT_ID);

const validators = new Map<string, ValidateFunction>();

function validatorAt(pointer: string): ValidateFunction {
  let validate = validators.get(pointer);
  if (validate === undefined) {
    validate = ajv.compile({ $ref: `${DOCUMENT_ID}#${pointer}` });
    validators.set(pointer, validate);
  }
  return validate;
}

const escapePointer = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1');

/** The problems of a body against a schema of the document; empty when it conforms. */
export function schemaProblems(pointer: string, body: unknown): string[] {
  const validate = validatorAt(pointer);
  if (validate(body)) return [];
  return (validate.errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message}`);
}

export function responseSchemaPointer(method: string, templatePath: string, status: number): string {
  return `/paths/${escapePointer(templatePath)}/${method.toLowerCase()}/responses/${status}/content/${escapePointer('application/json')}/schema`;
}

const templates = Object.keys(contractDocument.paths).map((template) => ({
  template,
  regex: new RegExp(`^${template.replace(/\{\w+\}/g, '[^/]+')}$`),
}));

/** The operation a request reached, and its path template; undefined for paths the API lacks. */
export function operationOf(method: string, path: string): { template: string; operation: Operation } | undefined {
  const pathname = new URL(path, 'http://sandbox.test').pathname;
  for (const { template, regex } of templates) {
    const operation = contractDocument.paths[template]?.[method.toLowerCase()];
    if (regex.test(pathname) && operation !== undefined) return { template, operation };
  }
  return undefined;
}

/**
 * Holds an error response to the contract: its body is an Error, and its status is one the
 * document lists for the operation (a request to no operation, a 404 or 405, has no list).
 */
export function checkAgainstContract(request: { method: string; path: string }, result: ReadResponse): void {
  if (result.status < 400) return;
  const problems = schemaProblems('/components/schemas/ErrorResponse', result.json);
  if (problems.length > 0) {
    throw new Error(
      `${request.method} ${request.path} answered ${result.status} with a body that is not an Error (${problems.join('; ')}): ${result.text}`,
    );
  }
  const reached = operationOf(request.method, request.path);
  if (reached !== undefined && !(String(result.status) in reached.operation.responses)) {
    throw new Error(
      `${request.method} ${request.path} answered ${result.status}, a status the OpenAPI document does not list for ${reached.operation.operationId}: ${result.text}`,
    );
  }
}
