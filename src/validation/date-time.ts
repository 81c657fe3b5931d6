// The one parser for every date-time Crier accepts (scheduledAt on create and PATCH, the list filters
// of GET /v1/posts, from/to of GET /v1/usage, since/until of an import, a recurrence's startAt and
// until), registered as Ajv's `date-time` format so a schema cannot use another. Accepted:
//   YYYY-MM-DDTHH:MM[:SS[.fraction]] then Z or ±HH:MM or ±HHMM   (ISO 8601 extended; T may be t or a
//   space, Z may be z; seconds may be left out, as clients often do)
//   the same with an IANA zone in brackets after it (RFC 9557, as Temporal and Java write it), the
//   offset then optional: 2026-11-26T09:00[Europe/Paris] is nine o'clock in Paris that day. An offset
//   given too must be the zone's at that time (a contradiction is refused, never resolved by a guess);
//   a local time the zone skips (02:30 when clocks jump from 02:00 to 03:00) is refused; one it has
//   twice (02:30 when clocks fall back) is the first, as the queues and recurrences read it
//   YYYY-MM-DD, only where a range filter takes a day: midnight UTC
// Refused: a missing time zone (the instant would depend on the server), what no calendar has (Feb 30,
// hour 24, minute or second 60: a leap second is not representable in JavaScript and PostgreSQL would
// silently roll it over), and instants outside the years 0001-9999, the four-digit years both JSON
// date-times and PostgreSQL write back (year 0000 does not exist in PostgreSQL; JavaScript's Date.UTC
// reads years below 100 as 19xx).
import { canonicalZone, instantOfLocal, offsetAt } from './time-zone.ts';

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(?:([Zz])|([+-])(\d{2}):?(\d{2}))?(?:\[!?([^\][=]+)\])?$/;

const EARLIEST = Date.parse('0001-01-01T00:00:00.000Z');
const LATEST = Date.parse('9999-12-31T23:59:59.999Z');

const RULES = 'an existing calendar time in the years 0001-9999';

/** The one wording of a refused date-time. */
export const DATE_TIME_MESSAGE = 'must be an ISO 8601 date-time with a time zone, such as 2026-11-26T06:09:00Z or 2026-11-26T08:09+02:00, '
  + `or with an IANA zone such as 2026-11-26T07:09[Europe/Paris] (a time that zone has: not in the hour skipped when clocks go forward), ${RULES}`;

/** The one wording of a refused range bound (a query parameter, hence the %2B). */
export const DATE_OR_DATE_TIME_MESSAGE = 'must be an ISO 8601 date-time with a time zone, such as 2026-11-26T06:09:00Z '
  + '(write + as %2B in a query string) or 2026-11-26T07:09[Europe/Paris], or a date such as 2026-11-26 (midnight UTC), '
  + RULES;

/** The same, for a bound sent in a JSON body (no query-string escaping to mention). */
export const DATE_OR_DATE_TIME_BODY_MESSAGE = 'must be an ISO 8601 date-time with a time zone, such as 2026-11-26T06:09:00Z '
  + `or 2026-11-26T07:09[Europe/Paris], or a date such as 2026-11-26 (midnight UTC), ${RULES}`;

/** The instant `text` names, or undefined when it is not an accepted date-time. */
export function parseDateTime(text: string): Date | undefined {
  const m = DATE_TIME.exec(text);
  if (!m) return undefined;
  const [, year, month, day, hours, minutes, seconds = '0', fraction = '', utc, sign, offsetHours = '0', offsetMinutes = '0', zoneName] = m;
  const fields = [year, month, day, hours, minutes, seconds].map(Number) as Fields;
  const milliseconds = Number(fraction.padEnd(3, '0').slice(0, 3));
  if (Number(offsetHours) > 23 || Number(offsetMinutes) > 59) return undefined;
  const zone = zoneName === undefined ? undefined : canonicalZone(zoneName);
  if (zoneName !== undefined && zone === undefined) return undefined;
  if (utc === undefined && sign === undefined) return zone === undefined ? undefined : inZone(fields, milliseconds, zone);
  const offset = (sign === '-' ? -1 : 1) * (Number(offsetHours) * 60 + Number(offsetMinutes));
  const at = instant(fields, milliseconds, offset);
  // Z names the instant whatever the zone; an offset must be the zone's own at that instant.
  if (at && zone !== undefined && utc === undefined && offsetAt(zone, at.getTime()) !== offset * 60_000) return undefined;
  return at;
}

/** The instant a local time names in `zone`: none in the spring gap, the first in the autumn overlap. */
function inZone(fields: Fields, milliseconds: number, zone: string): Date | undefined {
  const local = instant(fields, milliseconds, 0, false);
  const time = local === undefined ? undefined : instantOfLocal(zone, local.getTime());
  return time !== undefined && time >= EARLIEST && time <= LATEST ? new Date(time) : undefined;
}

/** Like parseDateTime, and also a plain date (a day), meaning its midnight UTC. */
export function parseDateOrDateTime(text: string): Date | undefined {
  const m = DATE.exec(text);
  if (!m) return parseDateTime(text);
  const [, year, month, day] = m;
  return instant([Number(year), Number(month), Number(day), 0, 0, 0], 0, 0);
}

type Fields = [year: number, month: number, day: number, hours: number, minutes: number, seconds: number];

/** The instant of a calendar time at an offset; `bounded`: only within the years 0001-9999. */
function instant([year, month, day, hours, minutes, seconds]: Fields, milliseconds: number, offsetMinutes: number, bounded = true): Date | undefined {
  const real = month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month) && hours <= 23 && minutes <= 59 && seconds <= 59;
  if (!real) return undefined;
  const local = new Date(0);
  local.setUTCFullYear(year, month - 1, day); // not Date.UTC: it reads years 0-99 as 1900-1999
  local.setUTCHours(hours, minutes, seconds, milliseconds);
  const time = local.getTime() - offsetMinutes * 60_000;
  return !bounded || (time >= EARLIEST && time <= LATEST) ? new Date(time) : undefined;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}
