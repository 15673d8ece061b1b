import assert from 'node:assert/strict';
import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { CHAOS_LOG_DIR, serverEnv, spawnChild, type Child } from './support/chaos.js';
import { ApiClient } from './support/client.js';
import { createPostgresDatabase, type Dialect, DIALECTS, skipUnless } from './support/databases.js';
import { basic } from './support/server.js';
import { openStream, type SseEvent, type SseStream } from './support/sse.js';
import { io, WORKSPACE, workspaceBody } from './support/structure.js';

/**
 * A stream resumed with Last-Event-ID after the instance serving it was SIGKILLed misses and repeats
 * nothing. Real servers as child processes under a steady stream of writes:
 * on SQLite the one instance is killed and started again on its database; on PostgreSQL two instances
 * share one database, the stream is served by one while the writes go to the other (the stream is
 * woken across instances), the serving one is killed and the client resumes on the survivor. What the
 * client received, before and after, must be exactly the log (read back through the list) after the
 * stream's first event, in commit order: acknowledged or not, every committed event, once.
 */
const USER = { username: 'kill-admin', password: 'kill-admin-password-1' };
const AUTH = basic(USER.username, USER.password);
const EVENTS = '/api/meshobjects/mesheventlogs';
const EVENT_LOG = 'application/vnd.vendor.api.mesheventlog.v1-preview.hal+json';
const QUERY = '?title=Workspace%20Created';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function logUuids(client: ApiClient): Promise<string[]> {
  const uuids: string[] = [];
  for (let page = 0; ; page++) {
    const response = await client.get(`${EVENTS}${QUERY}&size=350&page=${page}`, { headers: { accept: EVENT_LOG } });
    assert.equal(response.status, 200, response.text);
    const items = response.json._embedded?.meshEventLogs ?? [];
    uuids.push(...items.map((item: { metadata: { uuid: string } }) => item.metadata.uuid));
    if (page + 1 >= response.json.page.totalPages) break;
  }
  // Newest first: the commit order is the reverse.
  return uuids.reverse();
}

for (const dialect of DIALECTS as readonly Dialect[]) {
  const skip = skipUnless(dialect);
  describe(`event stream across a SIGKILL [${dialect}]`, { skip }, () => {
    it('resumes with Last-Event-ID on a live instance: every event of the log after the first one seen, once, in order', async () => {
      const dataDir = await mkdtemp(path.join(tmpdir(), 'blockyard-stream-kill-'));
      const database = dialect === 'postgres' ? await createPostgresDatabase() : undefined;
      await mkdir(CHAOS_LOG_DIR, { recursive: true });
      const log = createWriteStream(path.join(CHAOS_LOG_DIR, `stream-kill-${dialect}-${process.pid}-${Date.now()}.log`));
      const env = {
        ...serverEnv(dataDir, database?.url),
        BLOCKYARD_ADMIN_USERNAME: USER.username,
        BLOCKYARD_ADMIN_PASSWORD: USER.password,
        BLOCKYARD_EVENT_STREAM_HEARTBEAT_SECONDS: '1',
      };
      const children: Child[] = [];
      const start = async () => {
        const child = spawnChild(env, log, { prefixLines: true });
        child.label = `instance ${children.length + 1}`;
        children.push(child);
        const url = await child.start();
        return { child, url };
      };
      const streams: SseStream[] = [];
      let writing = true;
      try {
        const served = await start();
        const other = dialect === 'postgres' ? await start() : undefined;
        const ca = await readFile(path.join(dataDir, 'tls', 'cert.pem'), 'utf8');
        const clientOf = (url: string) => new ApiClient(url, ca, { authorization: AUTH });
        let writeTo = clientOf((other ?? served).url);
        // The writes: workspace creates, one after the other, through the instance that is not killed (PostgreSQL) or the one instance.
        let n = 0;
        const writer = (async () => {
          while (writing) {
            const body = workspaceBody(`kill-${dialect}-${n++}`);
            await writeTo.post('/api/meshobjects/meshworkspaces', body, { headers: io(WORKSPACE) }).catch(() => undefined);
            await sleep(5);
          }
        })();
        const first = await openStream(served.url, ca, `${EVENTS}${QUERY}`, { authorization: AUTH });
        streams.push(first);
        assert.equal(first.status, 200, first.text);
        await first.waitFor(20, 30_000);
        served.child.process.kill('SIGKILL');
        await served.child.exited;
        await first.done;
        const received: SseEvent[] = [...first.events];
        // Writes go on meanwhile (to the survivor), then the client resumes where it was.
        await sleep(300);
        let resumeOn = other;
        if (!resumeOn) {
          resumeOn = await start();
          writeTo = clientOf(resumeOn.url);
        }
        const resumed = await openStream(resumeOn.url, ca, `${EVENTS}${QUERY}`, { authorization: AUTH, lastEventId: received.at(-1)!.id! });
        streams.push(resumed);
        assert.equal(resumed.status, 200, resumed.text);
        await sleep(500);
        writing = false;
        await writer;
        const expected = await logUuids(clientOf(resumeOn.url));
        const from = expected.indexOf(received[0]!.id!);
        assert.ok(from >= 0, 'the first event received is in the log');
        const want = expected.slice(from);
        const deadline = Date.now() + 30_000;
        while (received.length + resumed.events.length < want.length && Date.now() < deadline) await sleep(50);
        await sleep(200);
        const got = [...received, ...resumed.events].map((event) => event.id!);
        assert.ok(resumed.events.length > 0, 'nothing arrived after the resume');
        assert.equal(new Set(got).size, got.length, 'an event arrived twice');
        assert.deepEqual(got, want, `${got.length} events received, ${want.length} in the log after the first one received`);
      } finally {
        writing = false;
        for (const stream of streams) stream.close();
        for (const child of children) child.process.kill('SIGKILL');
        await Promise.all(children.map((child) => child.exited));
        log.end();
        await database?.drop();
        await rm(dataDir, { recursive: true, force: true });
      }
    });
  });
}
