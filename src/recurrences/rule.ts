// When a recurrence's occurrences fall: pure arithmetic, `now` passed in, so the daylight-saving cases
// are tested on fixed dates.
//
// - `every`: elapsed time from `startAt` (a day is 24 hours: across a daylight-saving change the
//   local time of an occurrence moves an hour; a rule that must keep a local time is `weekly`).
// - `weekly`: the given days at a local time HH:MM in an IANA zone, walked with the queues' slot
//   arithmetic (queues/slots.ts): the local time holds on both sides of a change, a time that does not
//   exist that day (spring gap) is skipped that day, a time that happens twice is the first.
// The occurrences are those at or after `startAt`, at most `count` of them, none after `until`.
import { minuteOfWeek, slotInstants, type Day } from '../queues/slots.ts';

const MS_PER_HOUR = 3_600_000;
const MS_PER_DAY = 24 * MS_PER_HOUR;
/** Longer than any gap between two weekly occurrences (a week, two when a spring gap skips one). */
const WEEKLY_LOOKAHEAD_MS = 15 * MS_PER_DAY;

export type Rule =
  | { every: { days: number; hours: number } }
  | { weekly: { days: Day[]; time: string; timeZone: string } };

export interface Schedule {
  rule: Rule;
  startAt: Date;
  /** At most this many occurrences (indexes 0..count-1); null: no limit. */
  count: number | null;
  /** No occurrence after this instant; null: no end. */
  until: Date | null;
}

export function intervalMs(every: { days: number; hours: number }): number {
  return every.days * MS_PER_DAY + every.hours * MS_PER_HOUR;
}

/** The first occurrence (index 0), or undefined when the schedule has none. */
export function firstOccurrence(schedule: Schedule): Date | undefined {
  const at = 'every' in schedule.rule ? schedule.startAt : nextWeekly(schedule.rule.weekly, new Date(schedule.startAt.getTime() - 1));
  return within(schedule, 0, at);
}

/** The occurrence after the one at `at` (whose index is `index`), or undefined when the schedule ends. */
export function occurrenceAfter(schedule: Schedule, index: number, at: Date): Date | undefined {
  const next = 'every' in schedule.rule ? new Date(at.getTime() + intervalMs(schedule.rule.every)) : nextWeekly(schedule.rule.weekly, at);
  return within(schedule, index + 1, next);
}

export interface Position {
  index: number;
  at: Date;
}

/**
 * The first occurrence from `position` on whose time is not before `notBefore`, and how many were
 * passed over to reach it; `at` undefined when the schedule ends first (then every one left was passed over).
 */
export function firstNotBefore(schedule: Schedule, position: Position, notBefore: Date): { index: number; at: Date | undefined; skipped: number } {
  let { index, at } = position;
  if ('every' in schedule.rule && at < notBefore) {
    // Straight to it: an hourly rule paused for a year is not walked an hour at a time.
    const step = intervalMs(schedule.rule.every);
    const steps = Math.ceil((notBefore.getTime() - at.getTime()) / step);
    const target = within(schedule, index + steps, new Date(at.getTime() + steps * step));
    if (target) return { index: index + steps, at: target, skipped: steps };
    // Ended before `notBefore`: every occurrence left was passed over.
    const byCount = schedule.count === null ? Infinity : schedule.count - index;
    const byEnd = schedule.until === null ? Infinity : Math.floor((schedule.until.getTime() - at.getTime()) / step) + 1;
    return { index, at: undefined, skipped: Math.max(0, Math.min(byCount, byEnd)) };
  }
  let skipped = 0;
  while (at < notBefore) {
    const next = occurrenceAfter(schedule, index, at);
    if (!next) return { index, at: undefined, skipped: skipped + 1 };
    index += 1;
    skipped += 1;
    at = next;
  }
  return { index, at, skipped };
}

function within(schedule: Schedule, index: number, at: Date | undefined): Date | undefined {
  if (!at) return undefined;
  if (schedule.count !== null && index >= schedule.count) return undefined;
  if (schedule.until !== null && at > schedule.until) return undefined;
  return at;
}

/** The first weekly instant strictly after `after`. */
function nextWeekly(weekly: { days: Day[]; time: string; timeZone: string }, after: Date): Date | undefined {
  const slots = weekly.days.map((day) => minuteOfWeek({ day, time: weekly.time })).sort((a, b) => a - b);
  return slotInstants(weekly.timeZone, slots, after, new Date(after.getTime() + WEEKLY_LOOKAHEAD_MS))[0];
}
