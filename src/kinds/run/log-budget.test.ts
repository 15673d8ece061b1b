import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { bytesOf, fitLog, truncationMarker, utf8Prefix } from './log-budget.js';
import type { StepRow } from '../block/run.js';

const step = (stepId: string, userMessage?: string, systemMessage?: string): StepRow => ({
  sourceId: 's',
  stepId,
  position: 0,
  displayName: stepId,
  status: 'PENDING',
  outputs: {},
  ...(userMessage ? { userMessage } : {}),
  ...(systemMessage ? { systemMessage } : {}),
});

describe('the run log budget', () => {
  it('keeps messages that fit and counts their bytes (UTF-8)', () => {
    const { changes, logBytes } = fitLog([{ id: 'a', userMessage: 'héllo', systemMessage: 'ok' }], [], 0, 1000);
    assert.deepEqual(changes, [{ id: 'a', userMessage: 'héllo', systemMessage: 'ok' }]);
    assert.equal(logBytes, 8);
  });

  it('a replacing message frees the bytes of the one it replaces', () => {
    const { logBytes } = fitLog([{ id: 'a', systemMessage: 'xy' }], [step('a', undefined, 'x'.repeat(50))], 60, 100);
    assert.equal(logBytes, 12);
  });

  it('cuts what does not fit, ending it with a visible marker, never beyond the limit', () => {
    const limit = 200;
    const { changes, logBytes } = fitLog([{ id: 'a', systemMessage: 'x'.repeat(500) }], [], 50, limit);
    const kept = changes[0]!.systemMessage!;
    assert.ok(kept.endsWith(truncationMarker(limit)));
    assert.ok(kept.startsWith('xxx'));
    assert.equal(logBytes, limit);
    assert.equal(bytesOf(kept), limit - 50);
  });

  it('once the log is full a message is only the marker; later steps of the same report too', () => {
    const marker = truncationMarker(100);
    const { changes, logBytes } = fitLog(
      [
        { id: 'a', userMessage: 'more' },
        { id: 'b', userMessage: 'even more' },
      ],
      [],
      100,
      100,
    );
    assert.deepEqual(
      changes.map((c) => c.userMessage),
      [marker, marker],
    );
    assert.equal(logBytes, 100 + 2 * bytesOf(marker));
  });

  it('never splits a character', () => {
    assert.equal(utf8Prefix('aé', 2), 'a');
    assert.equal(utf8Prefix('aé', 3), 'aé');
    assert.equal(utf8Prefix('abc', 0), '');
  });
});
