// The two Rest.li protocol versions LinkedIn's API reads. "To use version 2.0, you must pass
// X-Restli-Protocol-Version: 2.0.0 … If you don't pass a header, your call will default to version 1.0"
// (learn.microsoft.com/linkedin/shared/api-guide/concepts/protocol-version). The versions differ in
// how a query carries structured values, and the emulator reads each the way its version writes it:
//   2.0: a list is one value `List(a,b)`, a record is `(field:value,…)`, a union `(member:value)`,
//        and a URN in a path must be fully encoded (a raw "(" "," ")" is key syntax);
//   1.0: a list repeats its parameter (`ids=1&ids=2`, the page's BATCH_GET), a record or union is
//        spelled out in dotted names (`timeIntervals.timeRange.start=…`), and a path key is a plain string.
// A 2.0 value sent as 1.0 (or the reverse) is not parsed: 400, as Rest.li refuses what it cannot bind.
import type { Reply } from '../../shared/http.ts';
import { illegalArgument, unsupportedProtocol } from '../errors.ts';

export type Protocol = 1 | 2;

type Query = Record<string, string[]>;

/** The protocol a request speaks: 2 for 2.0.0, 1 for 1.0.0 or no header; another value is refused. */
export function protocolOf(header: string | undefined): Protocol | Reply {
  if (header === '2.0.0') return 2;
  if (header === undefined || header === '1.0.0') return 1;
  return unsupportedProtocol(header);
}

export const isReply = (value: unknown): value is Reply => typeof value === 'object' && value !== null && 'status' in value;

/** Parameters whose 1.0 spelling repeats (lists): they may repeat only under 1.0. */
export const V1_LISTS: readonly string[] = ['shares', 'ugcPosts'];

/** The dotted 1.0 names of each 2.0 record or union parameter. */
export const V1_FIELDS: Readonly<Record<string, readonly string[]>> = {
  timeIntervals: ['timeIntervals.timeGranularityType', 'timeIntervals.timeRange.start', 'timeIntervals.timeRange.end'],
  entity: ['entity.share', 'entity.ugc'],
  dateRange: ['dateRange.start.day', 'dateRange.start.month', 'dateRange.start.year', 'dateRange.end.day', 'dateRange.end.month', 'dateRange.end.year'],
};

/** The URNs of a list parameter: 2.0 `List(a,b)` (one value), 1.0 every value given. */
export function listParam(protocol: Protocol, query: Query, name: string): string[] | Reply {
  const values = query[name] ?? [];
  if (protocol === 1) {
    const wrong = values.find((v) => !/^urn:li:\w+:\S+$/.test(v));
    return wrong === undefined ? values : illegalArgument(`Invalid value for ${name}: ${wrong}`);
  }
  if (!values.length) return [];
  const inner = /^List\((.*)\)$/.exec(values[0]!)?.[1];
  if (inner === undefined) return illegalArgument(`Invalid value for ${name}: ${values[0]} (expected List(…))`);
  return inner.split(',').map((urn) => urn.trim()).filter(Boolean);
}

export interface TimeIntervals {
  start: number;
  end: number;
  granularity: 'DAY' | 'MONTH';
}

/** The share statistics' timeIntervals record, undefined when absent. */
export function timeIntervalsParam(protocol: Protocol, query: Query): TimeIntervals | undefined | Reply {
  const one = (name: string) => query[name]?.[0];
  let fields: [string | undefined, string | undefined, string | undefined];
  if (protocol === 2) {
    const value = one('timeIntervals');
    if (value === undefined) return undefined;
    // A Rest.li 2.0 record: (timeRange:(start:…,end:…),timeGranularityType:…), fields in any order.
    if (!/^\(.*\)$/.test(value) || !/timeRange:\(/.test(value)) return illegalArgument(`Invalid timeIntervals parameter ${value}`);
    fields = [/start:(\d+)/.exec(value)?.[1], /end:(\d+)/.exec(value)?.[1], /timeGranularityType:(\w+)/.exec(value)?.[1]];
  } else {
    if (one('timeIntervals') !== undefined) return illegalArgument(`Invalid timeIntervals parameter ${one('timeIntervals')}`);
    const names = V1_FIELDS.timeIntervals!;
    if (!names.some((n) => one(n) !== undefined)) return undefined;
    fields = [one(names[1]!), one(names[2]!), one(names[0]!)];
  }
  const [start, end, granularity] = fields;
  if (!start || !end || !/^\d+$/.test(start) || !/^\d+$/.test(end) || (granularity !== 'DAY' && granularity !== 'MONTH')) {
    return illegalArgument(`Invalid timeIntervals parameter (timeRange:(start:${start},end:${end}),timeGranularityType:${granularity})`);
  }
  return { start: Number(start), end: Number(end), granularity };
}

/** memberCreatorPostAnalytics' entity union: 2.0 `(share:urn)` / `(ugc:urn)`, 1.0 `entity.share=urn` / `entity.ugc=urn`. */
export function entityParam(protocol: Protocol, query: Query): { member: 'share' | 'ugc'; urn: string } | Reply {
  const one = (name: string) => query[name]?.[0];
  if (protocol === 2) {
    const match = /^\((share|ugc):(urn:li:(?:share|ugcPost):\d+)\)$/.exec(one('entity') ?? '');
    return match ? { member: match[1] as 'share' | 'ugc', urn: match[2]! } : illegalArgument(`Invalid entity: ${one('entity') ?? '(missing)'}`);
  }
  if (one('entity') !== undefined) return illegalArgument(`Invalid entity: ${one('entity')}`);
  const share = one('entity.share');
  const ugc = one('entity.ugc');
  const urn = share ?? ugc ?? '';
  if ((share === undefined) === (ugc === undefined) || !/^urn:li:(?:share|ugcPost):\d+$/.test(urn)) return illegalArgument(`Invalid entity: ${urn || '(missing)'}`);
  return { member: share !== undefined ? 'share' : 'ugc', urn };
}

/** A dateRange record `(start:(day,month,year),end:(…))` as UTC ms [start, end); undefined when absent. */
export function dateRangeParam(protocol: Protocol, query: Query): { start: number; end: number } | undefined | Reply {
  const one = (name: string) => query[name]?.[0];
  let parts: (string | undefined)[];
  if (protocol === 2) {
    const value = one('dateRange');
    if (value === undefined) return undefined;
    const date = (side: string) => {
      const inner = new RegExp(`${side}:\\(([^)]*)\\)`).exec(value)?.[1] ?? '';
      const field = (name: string) => new RegExp(`(?:^|,)${name}:(\\d+)`).exec(inner)?.[1];
      return [field('day'), field('month'), field('year')];
    };
    parts = [...date('start'), ...date('end')];
  } else {
    if (one('dateRange') !== undefined) return illegalArgument(`Invalid dateRange parameter ${one('dateRange')}`);
    const names = V1_FIELDS.dateRange!;
    if (!names.some((n) => one(n) !== undefined)) return undefined;
    parts = names.map(one);
  }
  if (parts.some((p) => p === undefined)) return illegalArgument('Invalid dateRange parameter: start and end need day, month and year');
  const [sd, sm, sy, ed, em, ey] = parts.map(Number) as [number, number, number, number, number, number];
  const start = Date.UTC(sy, sm - 1, sd);
  const end = Date.UTC(ey, em - 1, ed);
  return end > start ? { start, end } : illegalArgument('Invalid dateRange parameter: end must be after start');
}
