import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { instantOf, uuidV7 } from './store.js';

describe('uuidV7', () => {
  it('is a version 7 UUID (RFC 9562) ordered by its instant', () => {
    const earlier = uuidV7(Date.parse('2026-01-01T00:00:00.000Z'));
    const later = uuidV7(Date.parse('2026-01-01T00:00:00.001Z'));
    for (const uuid of [earlier, later]) assert.match(uuid, /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.ok(earlier < later);
    assert.equal(earlier.slice(0, 13).replace('-', ''), Date.parse('2026-01-01T00:00:00.000Z').toString(16).padStart(12, '0'));
    assert.notEqual(uuidV7(0), uuidV7(0));
  });

  it('gives back its instant (an event is found by uuid through the time index); other uuids have none', () => {
    const at = '2026-11-23T15:52:30.406Z';
    assert.equal(instantOf(uuidV7(Date.parse(at))), at);
    assert.equal(instantOf('4f2d2969-177a-4f82-ad15-bd70675757b1'), undefined);
    assert.equal(instantOf('not a uuid'), undefined);
  });
});
