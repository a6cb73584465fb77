// The sandbox's own OpenAPI document, read over HTTP, as the tables of test/messages.test.ts and
// test/ids-and-limits.test.ts walk it: every write with its working example, every list filter.
import { call, type TestApp } from './helpers.js';

export interface Schema {
  type?: string | string[];
  enum?: string[];
  pattern?: string;
  format?: string;
  properties?: Record<string, Schema>;
  additionalProperties?: Schema | boolean;
  items?: Schema;
  anyOf?: Schema[];
  $ref?: string;
}

export interface Parameter {
  name: string;
  in: string;
  schema: Schema;
  example?: unknown;
}

interface Operation {
  operationId: string;
  parameters?: (Parameter | { $ref: string })[];
  requestBody?: { content: { 'application/json': { example?: Record<string, unknown>; schema: Schema } } };
}

export interface WriteOperation {
  operationId: string;
  method: string;
  /** The path with the example's `{id}`, so the example body is accepted there. */
  path: string;
  body: Record<string, unknown>;
  schema: Schema;
}

export interface ListOperation {
  path: string;
  parameters: Parameter[];
}

export class ApiDocument {
  constructor(
    readonly paths: Record<string, Record<string, Operation>>,
    readonly schemas: Record<string, Schema>,
  ) {}

  static async load(app: TestApp): Promise<ApiDocument> {
    const { json } = await call(app, '/openapi.json', { key: null });
    return new ApiDocument(json.paths, json.components.schemas);
  }

  /** A schema with its $ref followed; a nullable one as its non-null form. */
  resolve(schema: Schema): Schema {
    const ref = schema.$ref?.replace('#/components/schemas/', '');
    const resolved = ref === undefined ? schema : (this.schemas[ref] as Schema);
    const branch = resolved.anyOf?.find((option) => option.type !== 'null');
    return branch === undefined ? resolved : this.resolve(branch);
  }

  writes(): WriteOperation[] {
    const found: WriteOperation[] = [];
    for (const [template, item] of Object.entries(this.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        const content = operation.requestBody?.content['application/json'];
        if (content === undefined) continue;
        const id = (operation.parameters ?? []).find((parameter): parameter is Parameter => 'name' in parameter && parameter.in === 'path');
        found.push({
          operationId: operation.operationId,
          method: method.toUpperCase(),
          path: template.replace('{id}', String(id?.example ?? '')),
          body: content.example ?? {},
          schema: content.schema,
        });
      }
    }
    return found;
  }

  lists(): ListOperation[] {
    return Object.entries(this.paths)
      .filter(([template, item]) => !template.includes('{') && item.get !== undefined)
      .map(([path, item]) => ({
        path,
        parameters: (item.get?.parameters ?? []).filter(
          (parameter): parameter is Parameter => 'name' in parameter && parameter.in === 'query',
        ),
      }));
  }
}

/** The prefix an ID field or filter takes (`cli_`), from its pattern `^cli_`. */
export function idPrefix(schema: Schema): string | undefined {
  return schema.pattern?.match(/^\^([a-z]+_)$/)?.[1];
}
