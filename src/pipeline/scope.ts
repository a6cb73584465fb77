// Step 3 of the order of checks: the endpoint's scope (403 `scope_missing`), once the path is known.
import type { Endpoint } from '../http/endpoint.js';
import { requireScope } from '../http/auth.js';
import type { Step } from './step.js';

export function scope(endpoint: Endpoint): Step {
  return (c, next) => {
    requireScope(c.get('key'), endpoint.scope);
    return next();
  };
}
