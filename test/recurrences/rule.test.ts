// When occurrences fall, with fixed dates: an interval counted in elapsed time, a weekly rule keeping
// its local time across the Europe/Paris daylight-saving changes of 2027 (28 March, 31 October), a
// time in the spring gap skipped, the count and the end respected, and late occurrences skipped in one step.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { firstNotBefore, firstOccurrence, occurrenceAfter, type Schedule } from '../../src/recurrences/rule.ts';

/** Every occurrence of a schedule, walked as the runner walks them (at most `max`). */
function occurrences(schedule: Schedule, max = 50): string[] {
  const out: string[] = [];
  let at = firstOccurrence(schedule);
  for (let index = 0; at && out.length < max; index++) {
    out.push(at.toISOString());
    at = occurrenceAfter(schedule, index, at);
  }
  return out;
}

const weekly = (days: Schedule['rule'] extends infer R ? R extends { weekly: { days: infer D } } ? D : never : never, time: string, startAt: string, more: Partial<Schedule> = {}): Schedule => ({
  rule: { weekly: { days, time, timeZone: 'Europe/Paris' } }, startAt: new Date(startAt), count: null, until: null, ...more,
});

describe('every: elapsed time from startAt', () => {
  test('every 2 days, 3 times: startAt, +48 h, +96 h, then none', () => {
    const schedule: Schedule = { rule: { every: { days: 2, hours: 0 } }, startAt: new Date('2027-03-26T08:00Z'), count: 3, until: null };
    assert.deepEqual(occurrences(schedule), ['2027-03-26T08:00:00.000Z', '2027-03-28T08:00:00.000Z', '2027-03-30T08:00:00.000Z']);
  });

  test('every 1 day 6 hours until an end: the last one at or before the end', () => {
    const schedule: Schedule = { rule: { every: { days: 1, hours: 6 } }, startAt: new Date('2027-01-01T00:00Z'), count: null, until: new Date('2027-01-05T23:59Z') };
    assert.deepEqual(occurrences(schedule), ['2027-01-01T00:00:00.000Z', '2027-01-02T06:00:00.000Z', '2027-01-03T12:00:00.000Z', '2027-01-04T18:00:00.000Z']);
  });

  test('late: straight to the first occurrence not before a time, counting the ones passed over', () => {
    const schedule: Schedule = { rule: { every: { days: 0, hours: 1 } }, startAt: new Date('2027-01-01T00:00Z'), count: null, until: null };
    const got = firstNotBefore(schedule, { index: 0, at: schedule.startAt }, new Date('2027-12-31T23:30Z'));
    assert.equal(got.at?.toISOString(), '2028-01-01T00:00:00.000Z');
    assert.equal(got.index, 8760);
    assert.equal(got.skipped, 8760);
  });

  test('late past the count: the schedule has ended', () => {
    const schedule: Schedule = { rule: { every: { days: 1, hours: 0 } }, startAt: new Date('2027-01-01T00:00Z'), count: 3, until: null };
    assert.deepEqual(firstNotBefore(schedule, { index: 0, at: schedule.startAt }, new Date('2027-01-05T00:00Z')), { index: 0, at: undefined, skipped: 3 });
    const weeklyEnded = weekly(['sunday'], '09:00', '2027-03-14T00:00Z', { count: 2 });
    assert.deepEqual(firstNotBefore(weeklyEnded, { index: 0, at: firstOccurrence(weeklyEnded)! }, new Date('2027-04-01T00:00Z')).skipped, 2);
    assert.equal(firstNotBefore(schedule, { index: 0, at: schedule.startAt }, new Date('2027-01-02T00:00Z')).at?.toISOString(), '2027-01-02T00:00:00.000Z');
  });
});

describe('weekly in Europe/Paris across the 2027 daylight-saving changes', () => {
  test('spring forward (28 March): Sunday 09:00 local moves from 08:00Z to 07:00Z', () => {
    assert.deepEqual(occurrences(weekly(['sunday'], '09:00', '2027-03-20T00:00Z', { count: 3 })), [
      '2027-03-21T08:00:00.000Z', // CET
      '2027-03-28T07:00:00.000Z', // CEST, the day of the change
      '2027-04-04T07:00:00.000Z',
    ]);
  });

  test('a time in the spring gap (Sunday 02:30 on 28 March) is skipped that day, not moved', () => {
    assert.deepEqual(occurrences(weekly(['sunday'], '02:30', '2027-03-20T00:00Z', { count: 3 })), [
      '2027-03-21T01:30:00.000Z',
      '2027-04-04T00:30:00.000Z',
      '2027-04-11T00:30:00.000Z',
    ]);
  });

  test('fall back (31 October): 09:00 local moves from 07:00Z to 08:00Z; 02:30 happening twice is the first', () => {
    assert.deepEqual(occurrences(weekly(['saturday', 'sunday'], '09:00', '2027-10-29T00:00Z', { count: 4 })), [
      '2027-10-30T07:00:00.000Z', '2027-10-31T08:00:00.000Z', '2027-11-06T08:00:00.000Z', '2027-11-07T08:00:00.000Z',
    ]);
    assert.deepEqual(occurrences(weekly(['sunday'], '02:30', '2027-10-30T00:00Z', { count: 1 })), ['2027-10-31T00:30:00.000Z']);
  });

  test('startAt exactly at a slot includes it; until ends the series', () => {
    assert.deepEqual(occurrences(weekly(['monday', 'wednesday'], '18:00', '2027-03-22T17:00Z', { until: new Date('2027-03-29T16:00Z') })), [
      '2027-03-22T17:00:00.000Z', // Monday 18:00 CET
      '2027-03-24T17:00:00.000Z',
      '2027-03-29T16:00:00.000Z', // Monday 18:00 CEST: exactly the end, included
    ]);
  });

  test('late across the change: skipped in order, the first not before the time is local 09:00', () => {
    const schedule = weekly(['sunday'], '09:00', '2027-03-14T00:00Z');
    const first = firstOccurrence(schedule)!;
    const got = firstNotBefore(schedule, { index: 0, at: first }, new Date('2027-03-28T06:00Z'));
    assert.deepEqual([got.index, got.at?.toISOString(), got.skipped], [2, '2027-03-28T07:00:00.000Z', 2]);
  });
});
