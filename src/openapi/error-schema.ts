// The error body of the reference ("Errors") as a schema, for the OpenAPI document. The codes and
// types come from the one code table (src/errors.ts), so a new code appears here by itself.
import { z } from '@hono/zod-openapi';
import { ERROR_CODES, type ErrorCode } from '../errors.js';

const CODES = Object.keys(ERROR_CODES) as [ErrorCode, ...ErrorCode[]];
const TYPES = [...new Set(Object.values(ERROR_CODES).map((entry) => entry.type))] as [string, ...string[]];

export const ErrorBody = z
  .strictObject({
    error: z.strictObject({
      type: z.enum(TYPES),
      code: z.enum(CODES),
      message: z.string().openapi({ description: 'Text for the developer' }),
      param: z.string().optional().openapi({ description: 'The field at fault: a dotted body path, a query parameter or a header' }),
      doc_url: z
        .string()
        .regex(/^\/docs\/errors#[a-z_]+$/)
        .openapi({ description: 'Relative link to the section of /docs/errors on this code' }),
      request_id: z.string().regex(/^req_/).openapi({ description: 'The same value as the Request-Id header' }),
    }),
  })
  // Not 'Error': generated clients turn schema names into types, and `Error` would shadow the global.
  .openapi('ErrorResponse', {
    example: {
      error: {
        type: 'invalid_request_error',
        code: 'parameter_missing',
        message: 'Missing required param: name.',
        param: 'name',
        doc_url: '/docs/errors#parameter_missing',
        request_id: 'req_4fK2q9XhT0aLmC7bN1pQ3sRv',
      },
    },
  });
