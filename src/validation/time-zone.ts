// Time zones by their IANA names, over Intl's time-zone data (Node 24 has no Temporal): which names
// exist, a zone's offset at an instant, and the instant a local wall-clock time names. One place for
// the queues' weekly slots, the recurrences' weekly rule and a date-time sent with a zone
// (validation/date-time.ts).

const MS_PER_DAY = 86_400_000;

/**
 * The IANA name Intl knows `zone` by (`utc` -> `UTC`), or undefined for a name it does not know. A
 * UTC offset (`+02:00`), which Intl also takes, is refused: it has no daylight-saving rules, and a
 * queue set with one would drift an hour from its owner's clock twice a year.
 */
export function canonicalZone(zone: string): string | undefined {
  if (/^[+-]/.test(zone.trim())) return undefined;
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterOf(zone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(zone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone: zone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric',
    });
    formatters.set(zone, formatter);
  }
  return formatter;
}

/** The zone's offset from UTC at `instantMs`, in milliseconds (Paris in summer: +7,200,000). */
export function offsetAt(zone: string, instantMs: number): number {
  const parts: Record<string, number> = {};
  for (const part of formatterOf(zone).formatToParts(instantMs)) {
    if (part.type !== 'literal' && part.type !== 'era') parts[part.type] = Number(part.value);
  }
  const wallClock = Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!);
  const wholeSeconds = instantMs - (((instantMs % 1000) + 1000) % 1000);
  return wallClock - wholeSeconds;
}

/**
 * The instant a local wall-clock time names in `zone` (`localMs`: the wall clock read as if it were
 * UTC): the first of two in an autumn overlap, undefined in a spring gap. The offsets in force 12
 * hours either side are the only ones the local time can have (zones change offset at most once a day).
 */
export function instantOfLocal(zone: string, localMs: number): number | undefined {
  const offsets = new Set([offsetAt(zone, localMs - MS_PER_DAY / 2), offsetAt(zone, localMs + MS_PER_DAY / 2)]);
  const instants = [...offsets].map((offset) => localMs - offset).filter((instant) => localMs - offsetAt(zone, instant) === instant);
  return instants.length ? Math.min(...instants) : undefined;
}
