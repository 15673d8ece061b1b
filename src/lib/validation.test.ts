import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Type } from '@sinclair/typebox';
import fc from 'fast-check';
import { compileDecoder, fieldName, isDate, isDateTime, withoutNulls } from './validation.js';

describe('fieldName', () => {
  it('turns JSON pointers into dotted paths with indexes', () => {
    assert.equal(fieldName('/spec/inputs/0/value'), 'spec.inputs[0].value');
    assert.equal(fieldName(''), 'body');
  });
});

describe('withoutNulls', () => {
  it('drops null properties deeply but keeps array items', () => {
    assert.deepEqual(withoutNulls({ a: null, b: { c: null, d: 1 }, e: [null, { f: null }] }), { b: { d: 1 }, e: [null, {}] });
  });
});

describe('compileDecoder', () => {
  const decode = compileDecoder(Type.Object({ spec: Type.Object({ displayName: Type.String({ maxLength: 255 }) }) }));
  it('returns valid values and ignores unknown properties', () => {
    assert.deepEqual(decode({ spec: { displayName: 'x' }, status: null, extra: 1 }), { spec: { displayName: 'x' }, extra: 1 });
  });
  it('names the offending field in the 400 message', () => {
    assert.throws(
      () => decode({ spec: { displayName: 'x'.repeat(256) } }),
      (e: Error & { status?: number }) => e.status === 400 && e.message.startsWith('spec.displayName:'),
    );
    assert.throws(() => decode({ spec: {} }), /spec\.displayName/);
  });
});

const pad = (value: number, width = 2) => String(value).padStart(width, '0');

/** Whether the date exists, by asking the platform's calendar (setUTCFullYear takes years below 100 as they are). */
function dateExists(year: number, month: number, day: number): boolean {
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

describe('date formats', () => {
  it('accepts only dates that exist in the calendar', () => {
    for (const value of ['2025-01-31', '2024-02-29', '2000-02-29', '2025-12-31', '0001-01-01', '9999-12-31'])
      assert.ok(isDate(value), value);
    for (const value of [
      '2025-02-30',
      '2025-02-29',
      '1900-02-29',
      '2100-02-29',
      '2025-04-31',
      '2025-13-01',
      '2025-00-10',
      '2025-01-00',
      '2025-1-01',
      '25-01-01',
      '2025-01-01 ',
      'tomorrow',
      '',
    ]) {
      assert.ok(!isDate(value), value);
    }
  });

  it('agrees with the calendar for every year, month and day in range (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 9999 }),
        fc.integer({ min: 0, max: 13 }),
        fc.integer({ min: 0, max: 32 }),
        (year, month, day) => {
          const value = `${pad(year, 4)}-${pad(month)}-${pad(day)}`;
          assert.equal(isDate(value), month >= 1 && month <= 12 && day >= 1 && dateExists(year, month, day), value);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('accepts only date-times whose date, time and offset exist', () => {
    for (const value of [
      '2025-01-31T23:59:59Z',
      '2024-02-29T00:00:00.123456789Z',
      '2025-06-01T12:00:00+14:00',
      '2025-06-01T12:00:00-23:59',
    ])
      assert.ok(isDateTime(value), value);
    for (const value of [
      '2025-02-30T00:00:00Z',
      '2025-13-01T00:00:00Z',
      '2025-01-01T24:00:00Z',
      '2025-01-01T23:60:00Z',
      '2025-01-01T23:59:60Z',
      '2025-01-01T00:00:00+24:00',
      '2025-01-01T00:00:00+01:60',
      '2025-01-01T00:00:00',
      '2025-01-01 00:00:00Z',
      '2025-01-01',
    ]) {
      assert.ok(!isDateTime(value), value);
    }
  });

  it('accepts a date-time exactly when its parts exist, and then Date.parse reads it as written (property)', () => {
    const offset = fc.oneof(
      fc.constant('Z'),
      fc
        .tuple(fc.constantFrom('+', '-'), fc.integer({ min: 0, max: 25 }), fc.integer({ min: 0, max: 61 }))
        .map(([sign, h, m]) => `${sign}${pad(h)}:${pad(m)}`),
    );
    const part = (max: number) => fc.integer({ min: 0, max });
    fc.assert(
      fc.property(
        part(9999),
        part(13),
        part(32),
        part(25),
        part(61),
        part(61),
        fc.option(fc.integer({ min: 0, max: 999 })),
        offset,
        (year, month, day, hour, minute, second, millis, zone) => {
          const value = `${pad(year, 4)}-${pad(month)}-${pad(day)}T${pad(hour)}:${pad(minute)}:${pad(second)}${millis === null ? '' : `.${pad(millis, 3)}`}${zone}`;
          const offsetOk = zone === 'Z' || (Number(zone.slice(1, 3)) <= 23 && Number(zone.slice(4, 6)) <= 59);
          const exists =
            month >= 1 && month <= 12 && day >= 1 && dateExists(year, month, day) && hour <= 23 && minute <= 59 && second <= 59 && offsetOk;
          assert.equal(isDateTime(value), exists, value);
          if (!exists) return;
          const sign = zone === 'Z' ? 0 : zone.startsWith('-') ? -1 : 1;
          const offsetMinutes = zone === 'Z' ? 0 : sign * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(4, 6)));
          const local = new Date(0);
          local.setUTCFullYear(year, month - 1, day);
          local.setUTCHours(hour, minute, second, millis ?? 0);
          assert.equal(Date.parse(value), local.getTime() - offsetMinutes * 60_000, value);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('names the field and both formats when a date-or-date-time union fails', () => {
    const decode = compileDecoder(
      Type.Object({
        spec: Type.Object({
          expiresAt: Type.Optional(Type.Union([Type.String({ format: 'date' }), Type.String({ format: 'date-time' })])),
        }),
      }),
    );
    assert.deepEqual(decode({ spec: { expiresAt: '2024-02-29' } }), { spec: { expiresAt: '2024-02-29' } });
    for (const expiresAt of ['2025-02-30', '2025-13-01T00:00:00Z']) {
      assert.throws(
        () => decode({ spec: { expiresAt } }),
        (e: Error & { status?: number }) =>
          e.status === 400 && /^spec\.expiresAt: must be a calendar date \(YYYY-MM-DD\) or an RFC 3339 date-time/.test(e.message),
      );
    }
  });
});
