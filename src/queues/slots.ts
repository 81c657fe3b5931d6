// A queue's weekly slots as instants: pure calendar arithmetic over Intl's time-zone data (Node 24 has
// no Temporal), with `now` passed in so the daylight-saving cases are tested on fixed dates.
//
// A slot is a local wall-clock time on a day of the week. On a daylight-saving change:
//  - a slot keeps its local time on both sides (09:00 stays 09:00 local, its UTC instant moves);
//  - a slot whose local time does not exist that day (02:30 when clocks jump from 02:00 to 03:00) is
//    skipped that day, not moved: moving it would land on the next hour, possibly on another slot,
//    and the queue would publish at a time nobody chose;
//  - a slot whose local time happens twice (02:30 when clocks fall back from 03:00 to 02:00) is the
//    first occurrence, the one before the change.

import { instantOfLocal, offsetAt } from '../validation/time-zone.ts';

export const DAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
export type Day = (typeof DAYS)[number];

export const MINUTES_PER_DAY = 24 * 60;
const MS_PER_MINUTE = 60_000;
const MS_PER_DAY = 86_400_000;

/** A slot as the API writes it: a day of the week and a local time HH:MM. */
export interface WeeklySlot {
  day: Day;
  time: string;
}

/** Minutes from Monday 00:00 (the stored form) -> the API's form. */
export function slotOf(minuteOfWeek: number): WeeklySlot {
  const minutes = minuteOfWeek % MINUTES_PER_DAY;
  const hh = String(Math.floor(minutes / 60)).padStart(2, '0');
  const mm = String(minutes % 60).padStart(2, '0');
  return { day: DAYS[Math.floor(minuteOfWeek / MINUTES_PER_DAY)]!, time: `${hh}:${mm}` };
}

/** The API's form -> minutes from Monday 00:00 (the time already checked as HH:MM, 00:00-23:59). */
export function minuteOfWeek(slot: WeeklySlot): number {
  const [hh, mm] = slot.time.split(':').map(Number) as [number, number];
  return DAYS.indexOf(slot.day) * MINUTES_PER_DAY + hh * 60 + mm;
}

/**
 * Every slot instant of a weekly schedule after `from` and at most at `until`, ascending. Days are
 * walked as local calendar dates, so a week that holds a daylight-saving change keeps each slot at
 * its local time.
 */
export function slotInstants(zone: string, slots: readonly number[], from: Date, until: Date): Date[] {
  const offsetNow = offsetAt(zone, from.getTime());
  const firstLocal = new Date(from.getTime() + offsetNow);
  // The local date of `from` (a day earlier, should the offset guess be off near midnight).
  const firstDay = Date.UTC(firstLocal.getUTCFullYear(), firstLocal.getUTCMonth(), firstLocal.getUTCDate()) - MS_PER_DAY;
  const instants: Date[] = [];
  for (let dayMs = firstDay; dayMs <= until.getTime() + MS_PER_DAY; dayMs += MS_PER_DAY) {
    // Date.UTC's weekday is the local date's: 0 is Sunday there, Monday is 0 here.
    const weekday = (new Date(dayMs).getUTCDay() + 6) % 7;
    for (const slot of slots) {
      if (Math.floor(slot / MINUTES_PER_DAY) !== weekday) continue;
      const instant = instantOfLocal(zone, dayMs + (slot % MINUTES_PER_DAY) * MS_PER_MINUTE);
      if (instant !== undefined && instant > from.getTime() && instant <= until.getTime()) instants.push(new Date(instant));
    }
  }
  return instants.sort((a, b) => a.getTime() - b.getTime());
}
