import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { StreamInterest } from './stream-interest.js';

/** Two instances' interests talking over a channel that delivers each word to both (as NOTIFY does). */
function pair(heartbeatMs = 10_000) {
  let now = 1_000;
  const said: string[] = [];
  const woken = { a: 0, b: 0 };
  const channel: StreamInterest[] = [];
  const say = (payload: string) => {
    said.push(payload);
    for (const listener of channel) listener.heard(payload);
  };
  const a = new StreamInterest(
    say,
    () => woken.a++,
    heartbeatMs,
    () => now,
  );
  const b = new StreamInterest(
    say,
    () => woken.b++,
    heartbeatMs,
    () => now,
  );
  channel.push(a, b);
  return { a, b, said, woken, advance: (ms: number) => (now += ms) };
}

describe('StreamInterest', () => {
  it('has others watching only once another instance said so, and for three heartbeats', () => {
    const { a, b, woken, advance } = pair();
    assert.equal(a.othersWatching, false);
    b.watching(true);
    assert.equal(a.othersWatching, true);
    assert.equal(woken.a, 1, 'told to notify at once: its commits before the word would wait for the slow poll');
    // Its own word does not count.
    assert.equal(b.othersWatching, false);
    assert.equal(woken.b, 0);
    advance(29_999);
    assert.equal(a.othersWatching, true);
    advance(1);
    assert.equal(a.othersWatching, false);
    b.watching(false);
  });

  it('says it watches when its first stream opens, again every heartbeat, and stops when its last closes', async () => {
    const { a, b, said } = pair(20);
    b.watching(true);
    b.watching(true);
    assert.equal(said.length, 1, 'said once for the first stream');
    // Heartbeats: wait for two more words (each at least a heartbeat apart).
    while (said.length < 3) await new Promise((resolve) => setTimeout(resolve, 5));
    b.watching(false);
    const whileOpen = said.length;
    await new Promise((resolve) => setTimeout(resolve, 60));
    assert.equal(said.length, whileOpen, 'silent once its last stream closed');
    assert.ok(said.every((payload) => payload === said[0] && payload.startsWith('watching:')));
    assert.equal(a.othersWatching, true);
  });

  it('answers an instance that (re)connects and asks, while it has streams', () => {
    const { a, b, said } = pair();
    a.listening();
    assert.deepEqual(said, ['asking'], 'no streams: no answer');
    assert.equal(a.othersWatching, false);
    b.watching(true);
    said.length = 0;
    a.listening();
    assert.equal(said.length, 2);
    assert.equal(a.othersWatching, true);
    b.watching(false);
  });

  it('ignores commits and anything else said on the channel', () => {
    const { a } = pair();
    for (const payload of ['', 'watching', 'watch:x', 'asking:x']) a.heard(payload);
    assert.equal(a.othersWatching, false);
  });
});
