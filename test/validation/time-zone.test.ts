// Time zones by IANA name (validation/time-zone.ts), in a real zone with fixed dates (Europe/Paris,
// 2027: clocks jump from 02:00 to 03:00 on 28 March and fall back from 03:00 to 02:00 on 31 October).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { canonicalZone, instantOfLocal, offsetAt } from '../../src/validation/time-zone.ts';

const PARIS = 'Europe/Paris';
const HOUR_MS = 3_600_000;

describe('time zones', () => {
  test('a local time: an instant in a normal hour, none in the spring gap, the earlier in the autumn overlap', () => {
    assert.equal(instantOfLocal(PARIS, Date.UTC(2027, 2, 28, 2, 30)), undefined);
    assert.equal(new Date(instantOfLocal(PARIS, Date.UTC(2027, 2, 28, 3, 0))!).toISOString(), '2027-03-28T01:00:00.000Z');
    assert.equal(new Date(instantOfLocal(PARIS, Date.UTC(2027, 9, 31, 2, 0))!).toISOString(), '2027-10-31T00:00:00.000Z');
    assert.equal(new Date(instantOfLocal(PARIS, Date.UTC(2027, 9, 31, 3, 0))!).toISOString(), '2027-10-31T02:00:00.000Z');
  });

  test("a zone's offset at an instant: winter and summer time", () => {
    assert.equal(offsetAt(PARIS, Date.parse('2027-01-15T12:00Z')), HOUR_MS);
    assert.equal(offsetAt(PARIS, Date.parse('2027-07-15T12:00Z')), 2 * HOUR_MS);
    assert.equal(offsetAt('America/St_Johns', Date.parse('2027-01-15T12:00Z')), -3.5 * HOUR_MS);
  });

  test('IANA names are canonical as Intl resolves them; unknown names and UTC offsets are refused', () => {
    assert.equal(canonicalZone('Europe/Paris'), 'Europe/Paris');
    assert.equal(canonicalZone('utc'), 'UTC');
    assert.equal(canonicalZone('Mars/Olympus'), undefined);
    assert.equal(canonicalZone('+02:00'), undefined);
    assert.equal(canonicalZone(''), undefined);
  });
});
