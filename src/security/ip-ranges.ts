// Classifies an IP address as public or as one of the special-purpose ranges an outbound request on a
// user's behalf must never reach (SSRF). Written out by hand rather than with net.BlockList so the
// IPv6 forms that embed an IPv4 address (mapped, compatible, NAT64, 6to4) are judged by that IPv4
// address explicitly: those are the usual ways around a naive deny-list.
import { isIPv4, isIPv6 } from 'node:net';

export type AddressClass =
  | 'public'
  | 'loopback'
  | 'unspecified'
  | 'private'
  | 'shared' // CGNAT 100.64/10: the carrier's private network
  | 'link_local' // includes the cloud metadata service at 169.254.169.254
  | 'multicast'
  | 'reserved' // documentation, benchmarking, future use, broadcast, protocol assignments
  | 'invalid';

interface Range {
  base: number[]; // bytes
  prefix: number; // bits
  kind: Exclude<AddressClass, 'public' | 'invalid'>;
}

function range(cidr: string, kind: Range['kind']): Range {
  const [address, bits] = cidr.split('/') as [string, string];
  const base = isIPv4(address) ? parseIPv4(address) : parseIPv6(address);
  if (!base) throw new Error(`bad range ${cidr}`);
  return { base, prefix: Number(bits), kind };
}

// From the IANA IPv4 special-purpose registry: every range here is internal, non-unicast or unroutable.
const V4_RANGES: Range[] = [
  range('0.0.0.0/8', 'unspecified'), // "this network": Linux connects 0.0.0.0 to the local host
  range('10.0.0.0/8', 'private'),
  range('100.64.0.0/10', 'shared'),
  range('127.0.0.0/8', 'loopback'),
  range('169.254.0.0/16', 'link_local'),
  range('172.16.0.0/12', 'private'),
  range('192.0.0.0/24', 'reserved'),
  range('192.0.2.0/24', 'reserved'),
  range('192.88.99.0/24', 'reserved'), // deprecated 6to4 relay anycast
  range('192.168.0.0/16', 'private'),
  range('198.18.0.0/15', 'reserved'),
  range('198.51.100.0/24', 'reserved'),
  range('203.0.113.0/24', 'reserved'),
  range('224.0.0.0/4', 'multicast'),
  range('240.0.0.0/4', 'reserved'), // includes the broadcast address 255.255.255.255
];

// Only global unicast (2000::/3) is ever public; these are the non-routable pieces inside it.
const V6_RANGES_IN_GLOBAL: Range[] = [
  range('2001::/32', 'reserved'), // Teredo: tunnels to an (obfuscated) IPv4 address; obsolete
  range('2001:2::/48', 'reserved'), // benchmarking
  range('2001:10::/28', 'reserved'), // ORCHID
  range('2001:20::/28', 'reserved'), // ORCHIDv2
  range('2001:db8::/32', 'reserved'), // documentation
  range('3fff::/20', 'reserved'), // documentation
];

const V6_OUTSIDE_GLOBAL: Range[] = [
  range('fc00::/7', 'private'), // unique local addresses
  range('fe80::/10', 'link_local'),
  range('ff00::/8', 'multicast'),
];

export function classifyAddress(address: string): AddressClass {
  const v4 = parseIPv4(address);
  if (v4) return classifyV4(v4);
  const v6 = parseIPv6(address);
  return v6 ? classifyV6(v6) : 'invalid';
}

function classifyV4(bytes: number[]): AddressClass {
  return V4_RANGES.find((r) => inRange(bytes, r))?.kind ?? 'public';
}

function classifyV6(bytes: number[]): AddressClass {
  const embedded = embeddedIPv4(bytes);
  if (embedded) return classifyV4(embedded);
  if (bytes.every((b) => b === 0)) return 'unspecified';
  if (bytes.slice(0, 15).every((b) => b === 0) && bytes[15] === 1) return 'loopback';
  if ((bytes[0]! & 0xe0) !== 0x20) {
    // Outside 2000::/3 nothing is allocated for the public internet.
    return V6_OUTSIDE_GLOBAL.find((r) => inRange(bytes, r))?.kind ?? 'reserved';
  }
  return V6_RANGES_IN_GLOBAL.find((r) => inRange(bytes, r))?.kind ?? 'public';
}

/**
 * The IPv4 address an IPv6 address stands for, when it is one of the forms the network stack (or a
 * translator on the path) turns into an IPv4 destination. `::` and `::1` are not: they are IPv6's own.
 */
function embeddedIPv4(b: number[]): number[] | undefined {
  const zeros = (from: number, to: number) => b.slice(from, to).every((x) => x === 0);
  const tail = b.slice(12, 16);
  if (zeros(0, 10) && b[10] === 0xff && b[11] === 0xff) return tail; // ::ffff:a.b.c.d (mapped)
  if (zeros(0, 12) && !zeros(12, 15)) return tail; // ::a.b.c.d (compatible, deprecated)
  if (b[0] === 0x00 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b && zeros(4, 12)) return tail; // NAT64
  if (b[0] === 0x20 && b[1] === 0x02) return b.slice(2, 6); // 6to4: 2002:AABB:CCDD::/48
  return undefined;
}

function inRange(bytes: number[], r: Range): boolean {
  if (bytes.length !== r.base.length) return false;
  const full = Math.floor(r.prefix / 8);
  for (let i = 0; i < full; i++) if (bytes[i] !== r.base[i]) return false;
  const rest = r.prefix % 8;
  if (rest === 0) return true;
  const mask = (0xff << (8 - rest)) & 0xff;
  return (bytes[full]! & mask) === (r.base[full]! & mask);
}

/** Dotted-quad only: callers get addresses from DNS or from WHATWG URL, which both normalise. */
export function parseIPv4(text: string): number[] | undefined {
  return isIPv4(text) ? text.split('.').map(Number) : undefined;
}

/** 16 bytes, accepting `::` compression, a trailing dotted IPv4 and a zone id (`%eth0`). */
export function parseIPv6(text: string): number[] | undefined {
  const address = text.replace(/^\[(.*)\]$/, '$1').replace(/%.*$/, '');
  if (!isIPv6(address)) return undefined;
  const groups = expandGroups(address);
  return groups.flatMap((g) => [g >> 8, g & 0xff]);
}

function expandGroups(address: string): number[] {
  const toGroups = (part: string): number[] =>
    part === '' ? [] : part.split(':').flatMap((piece) => (piece.includes('.') ? dottedToGroups(piece) : [parseInt(piece, 16)]));
  const [head, tail] = address.split('::') as [string, string | undefined];
  const headGroups = toGroups(head);
  if (tail === undefined) return headGroups;
  const tailGroups = toGroups(tail);
  return [...headGroups, ...new Array<number>(8 - headGroups.length - tailGroups.length).fill(0), ...tailGroups];
}

function dottedToGroups(dotted: string): number[] {
  const [a, b, c, d] = dotted.split('.').map(Number) as [number, number, number, number];
  return [(a << 8) | b, (c << 8) | d];
}
