// Reading a response the way every test client does, on Node and in workerd alike: no runtime
// imports here, so both test projects can share it.

export interface ReadResponse {
  status: number;
  headers: Headers;
  text: string;
  /** The body parsed as JSON; undefined when it is empty or not JSON. */
  json: unknown;
}

export interface RequestLine {
  method: string;
  path: string;
}

type ResponseCheck = (request: RequestLine, result: ReadResponse) => void;
let responseCheck: ResponseCheck | undefined;

/**
 * A check run on every response read with its request: the Node suites install the OpenAPI
 * contract (test/contract.ts); the workerd suites, where ajv's compiled validators cannot run
 * (no code generation in workerd), do not.
 */
export function checkEveryResponse(check: ResponseCheck): void {
  responseCheck = check;
}

export async function readResponse(response: Response, request?: RequestLine): Promise<ReadResponse> {
  const text = await response.text();
  let json: unknown;
  try {
    json = text === '' ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  const result = { status: response.status, headers: response.headers, text, json };
  if (request !== undefined) responseCheck?.(request, result);
  return result;
}
