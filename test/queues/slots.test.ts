// A queue's weekly slots as instants, with `now` fixed: local times kept across daylight-saving
// changes in a real zone (Europe/Paris, 2027), the spring gap skipped, the autumn overlap's first
// occurrence taken. (The zones themselves: test/validation/time-zone.test.ts.)
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { minuteOfWeek, slotInstants, slotOf } from '../../src/queues/slots.ts';

const PARIS = 'Europe/Paris';
const iso = (dates: Date[]) => dates.map((d) => d.toISOString());
const slot = (day: Parameters<typeof minuteOfWeek>[0]['day'], time: string) => minuteOfWeek({ day, time });

describe('slots across daylight-saving changes (Europe/Paris, 2027)', () => {
  test('spring forward (28 March): 09:00 stays 09:00 local, from 08:00Z to 07:00Z; 02:30 does not exist that day and is skipped', () => {
    const slots = [slot('saturday', '09:00'), slot('sunday', '02:30'), slot('sunday', '09:00'), slot('monday', '09:00')];
    const got = slotInstants(PARIS, slots, new Date('2027-03-26T12:00Z'), new Date('2027-03-29T23:00Z'));
    assert.deepEqual(iso(got), [
      '2027-03-27T08:00:00.000Z', // Saturday 09:00 CET (+01:00)
      '2027-03-28T07:00:00.000Z', // Sunday 09:00 CEST (+02:00); Sunday 02:30 skipped
      '2027-03-29T07:00:00.000Z', // Monday 09:00 CEST
    ]);
  });

  test('the 02:30 slot is back the next Sunday, at its local time', () => {
    const got = slotInstants(PARIS, [slot('sunday', '02:30')], new Date('2027-03-20T00:00Z'), new Date('2027-04-05T00:00Z'));
    assert.deepEqual(iso(got), ['2027-03-21T01:30:00.000Z', '2027-04-04T00:30:00.000Z']);
  });

  test('fall back (31 October): 09:00 stays 09:00 local, from 07:00Z to 08:00Z; 02:30 happens twice and is the first (CEST) one', () => {
    const slots = [slot('saturday', '09:00'), slot('sunday', '02:30'), slot('sunday', '09:00')];
    const got = slotInstants(PARIS, slots, new Date('2027-10-29T12:00Z'), new Date('2027-11-01T00:00Z'));
    assert.deepEqual(iso(got), [
      '2027-10-30T07:00:00.000Z', // Saturday 09:00 CEST
      '2027-10-31T00:30:00.000Z', // Sunday 02:30 CEST, not 01:30Z (02:30 CET)
      '2027-10-31T08:00:00.000Z', // Sunday 09:00 CET
    ]);
  });
});

describe('the window of slotInstants', () => {
  test('strictly after `from`, up to `until` included, ascending across weeks and zones east of UTC', () => {
    const slots = [slot('monday', '00:00'), slot('sunday', '23:59')];
    // Auckland: Monday 00:00 is Sunday 11:00Z (+13:00 summer time) until 4 April 2027, then 12:00Z; Sunday 23:59 is 11:59Z after the change.
    const got = slotInstants('Pacific/Auckland', slots, new Date('2027-03-28T11:00Z'), new Date('2027-04-04T12:00Z'));
    assert.deepEqual(iso(got), ['2027-04-04T11:59:00.000Z', '2027-04-04T12:00:00.000Z']);
  });

  test('no slot in the window: none', () => {
    assert.deepEqual(slotInstants(PARIS, [slot('monday', '09:00')], new Date('2027-03-30T00:00Z'), new Date('2027-04-04T00:00Z')), []);
  });
});

describe('slots as the API writes them', () => {
  test('minutes from Monday 00:00 and back', () => {
    assert.equal(slot('tuesday', '09:30'), 24 * 60 + 570);
    assert.deepEqual(slotOf(slot('sunday', '23:59')), { day: 'sunday', time: '23:59' });
    assert.deepEqual(slotOf(0), { day: 'monday', time: '00:00' });
  });

});
