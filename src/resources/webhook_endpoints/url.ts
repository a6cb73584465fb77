// Webhook URLs must reach the public internet (docs/behaviour.md, "Webhook URLs"): absolute
// https, no credentials, and no host that names this machine or a private network. Hosts are
// read after WHATWG URL parsing, which turns 2130706433 or 0x7f.1 into 127.0.0.1 first.

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
  if (url.username !== '' || url.password !== '') return 'must not contain credentials';
  const host = url.hostname.toLowerCase().replace(/\.$/, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return 'must not point at localhost';
  if (host.startsWith('[')) return isPublicIpv6(host.slice(1, -1)) ? null : 'must not point at a loopback, private or link-local address';
  const ipv4 = parseIpv4(host);
  if (ipv4 !== null) return isPublicIpv4(ipv4) ? null : 'must not point at a loopback, private or link-local address';
  if (!host.includes('.')) return 'must have a public host name';
  return null;
}

function parseIpv4(host: string): number[] | null {
  const parts = host.split('.');
  if (parts.length !== 4 || !parts.every((part) => /^\d{1,3}$/.test(part))) return null;
  const octets = parts.map(Number);
  return octets.every((octet) => octet <= 255) ? octets : null;
}

function isPublicIpv4([a, b]: number[]): boolean {
  if (a === undefined || b === undefined) return false;
  if (a === 0 || a === 10 || a === 127) return false; // this network, private, loopback
  if (a === 169 && b === 254) return false; // link-local
  if (a === 172 && b >= 16 && b <= 31) return false; // private
  if (a === 192 && b === 168) return false; // private
  if (a === 100 && b >= 64 && b <= 127) return false; // shared address space (carrier NAT)
  if (a >= 224) return false; // multicast and reserved
  return true;
}

function isPublicIpv6(address: string): boolean {
  const groups = expandIpv6(address);
  if (groups === null) return false;
  if (groups.every((group) => group === 0)) return false; // unspecified
  if (groups.slice(0, 7).every((group) => group === 0) && groups[7] === 1) return false; // ::1
  const first = groups[0] as number;
  if ((first & 0xfe00) === 0xfc00) return false; // unique local fc00::/7
  if ((first & 0xffc0) === 0xfe80) return false; // link-local fe80::/10
  if ((first & 0xff00) === 0xff00) return false; // multicast
  // IPv4-mapped ::ffff:a.b.c.d and IPv4-compatible ::a.b.c.d: judge the IPv4 address inside.
  if (groups.slice(0, 5).every((group) => group === 0) && (groups[5] === 0xffff || groups[5] === 0)) {
    const [high, low] = [groups[6] as number, groups[7] as number];
    return isPublicIpv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
  }
  return true;
}

/** Eight 16-bit groups of an IPv6 address as the URL parser writes it (hex, `::` compressed). */
function expandIpv6(address: string): number[] | null {
  const [head = '', tail] = address.split('::');
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((group) => Number.parseInt(group, 16)));
  const left = parse(head);
  const right = tail === undefined ? [] : parse(tail);
  const missing = 8 - left.length - right.length;
  if (missing < 0 || (tail === undefined && missing !== 0)) return null;
  const groups = [...left, ...new Array<number>(missing).fill(0), ...right];
  return groups.every((group) => Number.isInteger(group) && group >= 0 && group <= 0xffff) ? groups : null;
}
