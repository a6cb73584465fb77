// Reading a response the way every test client does, on Node and in workerd alike: no runtime
// imports here, so both test projects can share it.

export interface ReadResponse {
  status: number;
  headers: Headers;
  text: string;
  /** The body parsed as JSON; undefined when it is empty or not JSON. */
  json: unknown;
}

export async function readResponse(response: Response): Promise<ReadResponse> {
  const text = await response.text();
  let json: unknown;
  try {
    json = text === '' ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
}
