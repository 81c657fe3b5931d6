// The one date-time parser (validation/date-time.ts) with an IANA zone (RFC 9557's bracketed suffix):
// a local time in the zone across both daylight-saving changes (Europe/Paris, 2027: 28 March 02:00
// -> 03:00, 31 October 03:00 -> 02:00), an offset that must agree with the zone, and what is refused.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseDateOrDateTime, parseDateTime } from '../../src/validation/date-time.ts';

const iso = (text: string) => parseDateTime(text)?.toISOString();

describe('a date-time with an IANA zone', () => {
  test('a local time names its instant in the zone, winter and summer', () => {
    assert.equal(iso('2027-01-15T09:00[Europe/Paris]'), '2027-01-15T08:00:00.000Z');
    assert.equal(iso('2027-07-15T09:00:30.250[Europe/Paris]'), '2027-07-15T07:00:30.250Z');
    assert.equal(iso('2027-01-15T09:00[America/St_Johns]'), '2027-01-15T12:30:00.000Z');
    assert.equal(iso('2027-01-15T09:00[utc]'), '2027-01-15T09:00:00.000Z', 'names are read as Intl resolves them');
    assert.equal(iso('2027-01-15T09:00[!Europe/Paris]'), '2027-01-15T08:00:00.000Z', "RFC 9557's critical flag");
  });

  test('across the spring change: 01:59 and 03:00 exist, 02:30 does not and is refused', () => {
    assert.equal(iso('2027-03-28T01:59[Europe/Paris]'), '2027-03-28T00:59:00.000Z');
    assert.equal(iso('2027-03-28T03:00[Europe/Paris]'), '2027-03-28T01:00:00.000Z');
    assert.equal(iso('2027-03-28T02:30[Europe/Paris]'), undefined);
  });

  test('across the autumn change: 02:30 happens twice and is the first, unless an offset says which', () => {
    assert.equal(iso('2027-10-31T02:30[Europe/Paris]'), '2027-10-31T00:30:00.000Z');
    assert.equal(iso('2027-10-31T02:30+02:00[Europe/Paris]'), '2027-10-31T00:30:00.000Z');
    assert.equal(iso('2027-10-31T02:30+01:00[Europe/Paris]'), '2027-10-31T01:30:00.000Z');
  });

  test('an offset the zone does not have then is refused; Z names the instant whatever the zone', () => {
    assert.equal(iso('2027-01-15T09:00+02:00[Europe/Paris]'), undefined);
    assert.equal(iso('2027-01-15T09:00Z[Europe/Paris]'), '2027-01-15T09:00:00.000Z');
  });

  test('unknown zones, offsets as zones, other annotations and impossible dates are refused', () => {
    for (const text of [
      '2027-01-15T09:00[Mars/Olympus]', '2027-01-15T09:00[+02:00]', '2027-01-15T09:00[]', '2027-01-15T09:00[u-ca=japanese]',
      '2027-01-15T09:00[Europe/Paris][u-ca=iso8601]', '2027-02-30T09:00[Europe/Paris]', '2027-01-15T24:00[Europe/Paris]',
      '2027-01-15[Europe/Paris]', '0001-01-01T00:30[Europe/Paris]', '2027-01-15T09:00 Europe/Paris',
    ]) assert.equal(parseDateTime(text), undefined, text);
  });

  test('without a zone or offset a date-time is still refused; a range bound may still be a plain date', () => {
    assert.equal(parseDateTime('2027-01-15T09:00'), undefined);
    assert.equal(parseDateOrDateTime('2027-01-15')?.toISOString(), '2027-01-15T00:00:00.000Z');
    assert.equal(parseDateOrDateTime('2027-01-15T09:00[Europe/Paris]')?.toISOString(), '2027-01-15T08:00:00.000Z');
  });
});
