import { ApiError } from '../errors.js';
import { quoted, shownName } from './messages.js';

/** The path and query of an absolute URL, as the request line sent them. */
export function pathAndQuery(url: string): string {
  return url.slice(url.indexOf('/', url.indexOf('//') + 2));
}

/**
 * The query string as a plain object of single values. A parameter given twice is a 400: the
 * reference has no array parameters, and taking either value silently would hide a client bug.
 */
export function readQuery(url: string): Record<string, string> | null {
  const mark = url.indexOf('?');
  // null, not {}, for "no query at all": most reads have none and skip validation entirely.
  if (mark === -1 || mark === url.length - 1) return null;
  const query: Record<string, string> = {};
  const search = new URLSearchParams(url.slice(mark + 1));
  for (const [name, value] of search) {
    if (Object.hasOwn(query, name)) {
      // A parameter with an empty name has no name to give as param.
      throw new ApiError('parameter_invalid', {
        ...(name === '' ? {} : { param: name }),
        message: `${name === '' ? 'A parameter with an empty name' : shownName(name)} must be given once; received it more than once (${quoted(query[name] as string)} and ${quoted(value)}).`,
      });
    }
    // defineProperty, not assignment: a parameter named __proto__ stays a plain key.
    Object.defineProperty(query, name, { value, enumerable: true, writable: true, configurable: true });
  }
  return query;
}
