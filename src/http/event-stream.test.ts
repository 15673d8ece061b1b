import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { wantsEventStream } from './event-stream.js';

describe('wantsEventStream', () => {
  it('is true when text/event-stream is the highest-ranked Accept range', () => {
    assert.equal(wantsEventStream('text/event-stream'), true);
    assert.equal(wantsEventStream('Text/Event-Stream; charset=utf-8'), true);
    assert.equal(wantsEventStream('application/vnd.vendor.api.mesheventlog.v1-preview.hal+json;q=0.5, text/event-stream'), true);
    assert.equal(wantsEventStream(['text/event-stream']), true);
  });
  it('is false otherwise: the list answers', () => {
    assert.equal(wantsEventStream(undefined), false);
    assert.equal(wantsEventStream(''), false);
    assert.equal(wantsEventStream('application/vnd.vendor.api.mesheventlog.v1-preview.hal+json, text/event-stream'), false);
    assert.equal(wantsEventStream('text/event-stream;q=0.1, application/json'), false);
    assert.equal(wantsEventStream('text/event-stream;q=0'), false);
    assert.equal(wantsEventStream('*/*'), false);
  });
});
