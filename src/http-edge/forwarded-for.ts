// The client's address behind the operator's own proxies (SANDBOX.md, "The client's address";
// README, SANDBOX_TRUST_PROXY). Each proxy appends the address it was reached from to
// X-Forwarded-For, so with n proxies of the operator's in front of the server, the last n entries
// were written by them and the one n hops back, `entries[length - n]`, is the address the
// outermost of them saw: the client. n = 1 is the last entry, the one the nearest proxy added.
// Whatever stands further left was written by the client and is never believed (anyone can send
// `X-Forwarded-For: 1.2.3.4`). The rules are Express's `trust proxy = n` (proxy-addr):
// - no header: the socket's peer (the request did not come through the proxies);
// - fewer entries than n: the leftmost one, the furthest any of the operator's proxies saw.

/** The most proxies SANDBOX_TRUST_PROXY takes: more than any real chain, few enough to be a number someone typed. */
export const TRUST_PROXY_MAX = 99;

/** An address as kept: an IPv6 address with a zone fits; a longer entry is no address, only a bucket name. */
const ADDRESS_MAX = 100;

/**
 * SANDBOX_TRUST_PROXY's text as a number of proxies (0: none, the socket's address), or why it
 * cannot be one: the message then names the variable or flag (`name`).
 */
export function parseTrustProxy(text: string, name: string): number | string {
  const trimmed = text.trim();
  if (/^\d{1,2}$/.test(trimmed)) return Number(trimmed);
  const hint = /^(true|yes|on|all)$/i.test(trimmed)
    ? ' Trusting every entry would take whatever a client writes in X-Forwarded-For as its address: give the count of your own proxies.'
    : '';
  return `${name} must be how many proxies of yours stand in front of the server, a whole number from 0 (none, the default: the socket's address) to ${TRUST_PROXY_MAX}, such as 1 behind one load balancer; received ${JSON.stringify(text)}.${hint}`;
}

/**
 * The address `hops` back in X-Forwarded-For (see above), or `peer` without the header. Read from
 * the end without splitting the whole header: it may be 16 KiB of entries a client wrote.
 */
export function forwardedAddress(header: string | undefined, hops: number, peer: string): string {
  if (header === undefined) return peer;
  let end = header.length;
  let start = header.lastIndexOf(',') + 1;
  for (let hop = 1; hop < hops && start > 0; hop++) {
    end = start - 1;
    start = header.lastIndexOf(',', end - 1) + 1;
  }
  const entry = header.slice(start, end).trim();
  return entry === '' ? peer : entry.slice(0, ADDRESS_MAX);
}
