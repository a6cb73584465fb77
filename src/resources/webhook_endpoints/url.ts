// Webhook URLs must reach the public internet (docs/behaviour.md, "Webhook URLs"): absolute
// https, no credentials, and no host that names this machine or a private network. Hosts are
// read after WHATWG URL parsing, which turns 2130706433 or 0x7f.1 into 127.0.0.1 first.

const PRIVATE = 'must not point at a loopback, private or link-local address';

/** Why a URL cannot receive webhooks, or null when it can. */
export function webhookUrlProblem(text: string): string | null {
  // The URL parser silently strips surrounding spaces and inner tabs and newlines, so the URL
  // stored would not be the URL delivered to: refuse them rather than keep a different text.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it looks for
  if (/[\u0000-\u0020\u007f]/.test(text)) return 'must not contain spaces or control characters';
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'must be an absolute URL';
  }
  if (url.protocol !== 'https:') return 'must use https';
  // For the same reason: the parser also reads `https:host` and `https:/host`, takes a backslash
  // for a slash, and drops an empty `@` before the host.
  if (!text.toLowerCase().startsWith('https://')) return 'must begin with https://';
  if (text.includes('\\')) return 'must not contain backslashes';
  // Credentials are whatever comes before an `@` in the authority, even when empty.
  if (/^[^/?#]*@/.test(text.slice('https://'.length))) return 'must not contain credentials';
  // The parser gives the host in lower case; a trailing dot names the same host.
  const host = url.hostname.replace(/\.$/, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return 'must not point at localhost';
  if (host.startsWith('[')) return isPublicIpv6(host.slice(1, -1)) ? null : PRIVATE;
  const octets = ipv4Octets(host);
  if (octets !== null) return isPublicIpv4(octets) ? null : PRIVATE;
  if (!host.includes('.') || host.split('.').includes('')) return 'must have a public host name';
  return null;
}

type Octets = readonly [number, number, number, number];

/**
 * The four numbers of an IPv4 host. To the parser a host whose last label is a number is an IPv4
 * address, which it writes as four decimal numbers (2130706433, 0x7f.1 and 0177.0.0.1 alike), and
 * any other host ending in a number is no URL.
 */
function ipv4Octets(host: string): Octets | null {
  const labels = host.split('.');
  return /^\d+$/.test(labels[labels.length - 1] as string) ? (labels.map(Number) as unknown as Octets) : null;
}

function isPublicIpv4([a, b]: Octets): boolean {
  if (a === 0 || a === 10 || a === 127) return false; // this network, private, loopback
  if (a === 169 && b === 254) return false; // link-local
  if (a === 172 && b >= 16 && b <= 31) return false; // private
  if (a === 192 && b === 168) return false; // private
  if (a === 100 && b >= 64 && b <= 127) return false; // shared address space (carrier NAT)
  if (a >= 224) return false; // multicast and reserved
  return true;
}

function isPublicIpv6(address: string): boolean {
  const groups = ipv6Groups(address);
  const first = groups[0] as number;
  if ((first & 0xfe00) === 0xfc00) return false; // unique local fc00::/7
  if ((first & 0xffc0) === 0xfe80) return false; // link-local fe80::/10
  if ((first & 0xff00) === 0xff00) return false; // multicast
  // IPv4-mapped ::ffff:a.b.c.d and IPv4-compatible ::a.b.c.d: judge the IPv4 address inside.
  // The unspecified :: and the loopback ::1 are the compatible 0.0.0.0 and 0.0.0.1, both in 0/8.
  if (groups.slice(0, 5).every((group) => group === 0) && (groups[5] === 0xffff || groups[5] === 0)) {
    const [high, low] = [groups[6] as number, groups[7] as number];
    return isPublicIpv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
  }
  return true;
}

/** The eight 16-bit groups of an IPv6 address as the URL parser writes it: hex, at most one `::`. */
function ipv6Groups(address: string): number[] {
  const [head, tail] = address.split('::') as [string, string?];
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((group) => Number.parseInt(group, 16)));
  const left = parse(head);
  const right = tail === undefined ? [] : parse(tail);
  return [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
}
