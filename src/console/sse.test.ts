import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { followEvents } from './sse.js';

/** A fetch answering each connection from a script: the requests it saw, the answers in order. */
function scriptedFetch(answers: (() => Response)[]) {
  const requests: Record<string, string>[] = [];
  const fetchFn = (async (_url: string, init: RequestInit) => {
    requests.push(init.headers as Record<string, string>);
    const next = answers.shift();
    if (!next) return new Promise<Response>(() => undefined); // the last connection stays open
    return next();
  }) as typeof fetch;
  return { fetchFn, requests };
}

/** A stream body delivering `text` in small chunks (split inside lines, as networks do). */
const streamOf = (text: string) =>
  new Response(
    new ReadableStream({
      start(controller) {
        for (let i = 0; i < text.length; i += 7) controller.enqueue(new TextEncoder().encode(text.slice(i, i + 7)));
        controller.close();
      },
    }),
    { status: 200, headers: { 'content-type': 'text/event-stream' } },
  );

const until = async (check: () => boolean) => {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 5));
  assert.ok(check(), 'timed out');
};

describe('the event stream client', () => {
  it('parses events split across chunks and resumes with Last-Event-ID after the stream ends', async () => {
    const { fetchFn, requests } = scriptedFetch([
      () => streamOf('retry: 10\n: following\n\nid: e1\nevent: meshEventLog\ndata: {"n":1}\n\nid: e2\ndata: {"n":2}\n\n'),
      () => streamOf('id: e3\ndata: {"n":3}\n\n'),
    ]);
    const seen: string[] = [];
    const follower = followEvents({
      url: '/events',
      headers: async () => ({ authorization: `Bearer t${requests.length}` }),
      onEvent: (e) => seen.push(e.data),
      fetch: fetchFn,
      retryMs: 1000,
    });
    await until(() => seen.length === 3);
    follower.close();
    assert.deepEqual(seen, ['{"n":1}', '{"n":2}', '{"n":3}']);
    assert.equal(requests[0]!['last-event-id'], undefined);
    assert.equal(requests[1]!['last-event-id'], 'e2', 'the reconnection resumes after the last event');
    assert.equal(requests[1]!.authorization, 'Bearer t1', 'each connection asks for fresh headers (a refreshed token)');
    assert.equal(requests[0]!.accept, 'text/event-stream');
    assert.equal(follower.lastEventId, 'e3');
  });

  it('starts afresh and reports a gap when the server cannot resume (410)', async () => {
    const { fetchFn, requests } = scriptedFetch([
      () => streamOf('retry: 5\nid: old\ndata: x\n\n'),
      () => new Response('{"message":"gone"}', { status: 410 }),
      () => streamOf('id: new\ndata: y\n\n'),
    ]);
    let gaps = 0;
    const seen: string[] = [];
    const follower = followEvents({
      url: '/events',
      headers: async () => ({}),
      onEvent: (e) => seen.push(e.data),
      onGap: () => gaps++,
      fetch: fetchFn,
    });
    await until(() => seen.length === 2);
    follower.close();
    assert.equal(gaps, 1);
    assert.equal(requests[1]!['last-event-id'], 'old');
    assert.equal(requests[2]!['last-event-id'], undefined);
  });

  it('stops with the server’s message when retrying cannot help (403), and reconnects on a 5xx', async () => {
    const statuses: string[] = [];
    const denied = scriptedFetch([() => new Response('{"message":"EVENTLOG_LIST is needed","errorCode":"Forbidden"}', { status: 403 })]);
    followEvents({
      url: '/events',
      headers: async () => ({}),
      onEvent: () => undefined,
      onStatus: (s, d) => statuses.push(`${s}: ${d}`),
      fetch: denied.fetchFn,
    });
    await until(() => statuses.length === 1);
    await new Promise((resolve) => setTimeout(resolve, 30));
    assert.deepEqual(statuses, ['stopped: EVENTLOG_LIST is needed']);
    assert.equal(denied.requests.length, 1);

    const flaky = scriptedFetch([() => new Response('', { status: 503 }), () => streamOf('id: a\ndata: z\n\n')]);
    const seen: string[] = [];
    const follower = followEvents({
      url: '/events',
      headers: async () => ({}),
      onEvent: (e) => seen.push(e.data),
      fetch: flaky.fetchFn,
      retryMs: 5,
    });
    await until(() => seen.length === 1);
    follower.close();
  });
});
