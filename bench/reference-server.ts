import { readFileSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import Fastify from 'fastify';
import { createLoggers } from '../src/logging.js';
import { blockText, pageText, type BlockRow } from './row-text.js';

/**
 * The references the API's reads are judged against: bare Fastify over the same TLS answering from the
 * same SQLite file with prepared statements — no authentication, permissions, negotiation or
 * representation. A building block row by uuid, and for each list filter family the API's own query:
 * a page of 50 rows in the API's order (creation time, then uuid) with its total. The totals are read
 * the way the API reads them: counted by index, except a definition's blocks, whose total is the
 * definition's usage count, the sum of its stripes (counting them would make the reference slower than the API, not faster).
 */
const [dataDir, answerFile] = process.argv.slice(2) as [string, string | undefined];
/**
 * With an answer file (`bench/read-ab.ts --floor`): GET block and the lists it names still read what
 * they read, then send the API's own answer to such a request — its headers and body, byte for byte —
 * and, with `"accessLog": true`, write the API's access line through the API's own logger (a request
 * id, the line, its batching). What the answer alone costs, without any of the work that makes it.
 * With `"textFrom"` (the API's base URL) they write that answer from the rows they read instead
 * (`row-text.ts`: the least work that makes it), with the API's headers.
 */
interface Answer {
  headers: Record<string, string>;
  body: string;
}
const answers = answerFile
  ? (JSON.parse(readFileSync(answerFile, 'utf8')) as {
      block: Answer;
      lists: Record<string, Answer>;
      accessLog: boolean;
      textFrom?: string;
    })
  : undefined;
const textFrom = answers?.textFrom;
const accessLog = answers?.accessLog ? createLoggers({ logLevel: 'info' }).access : undefined;
const db = new SQLite(path.join(dataDir, 'blockyard.db'), { readonly: true });
const byUuid = db.prepare('select * from building_blocks where uuid = ?');
const ORDER = 'order by created_on, uuid limit 50';
const lists: Record<string, { page: SQLite.Statement; total: SQLite.Statement }> = {
  'workspace-status': {
    page: db.prepare(`select * from building_blocks where workspace = ? and status = ? ${ORDER}`),
    total: db.prepare('select count(*) from building_blocks where workspace = ? and status = ?').pluck(),
  },
  definition: {
    page: db.prepare(`select * from building_blocks where definition_uuid = ? ${ORDER}`),
    total: db.prepare('select coalesce(sum(blocks), 0) from definition_usage where definition_uuid = ?').pluck(),
  },
  tenant: {
    page: db.prepare(`select * from building_blocks where tenant_uuid = ? ${ORDER}`),
    total: db.prepare('select count(*) from building_blocks where tenant_uuid = ?').pluck(),
  },
};
// The managedBy family reads the definition (its owner, for the permission check) and then pages as the definition family does.
const owner = db.prepare('select owned_by_workspace from definitions where uuid = ?').pluck();

const app = Fastify({
  ...(accessLog ? { genReqId: () => crypto.randomUUID() } : {}),
  https: {
    cert: readFileSync(path.join(dataDir, 'tls/cert.pem')),
    key: readFileSync(path.join(dataDir, 'tls/key.pem')),
    minVersion: 'TLSv1.2',
  },
  keepAliveTimeout: 72_000,
});
app.get('/api/meshobjects/meshbuildingblocks/:uuid', async (request, reply) => {
  const row = byUuid.get((request.params as { uuid: string }).uuid);
  if (!row) return reply.code(404).send({ message: 'not found' });
  if (!answers) return row;
  return reply.headers(answers.block.headers).send(textFrom ? blockText(row as BlockRow, textFrom) : answers.block.body);
});
if (accessLog) {
  app.addHook('onResponse', (request, reply, done) => {
    accessLog.write({
      reqId: request.id,
      method: request.method,
      url: request.url,
      statusCode: reply.statusCode,
      responseTime: reply.elapsedTime,
      caller: 'client:00000000-0000-4000-8000-0000000be0c1',
    });
    done();
  });
}
/**
 * `BENCH_REFERENCE_SPIN_US` (`bench/read-ab.ts --spin`): the reference doing that many microseconds of
 * busy work more per request, on the event loop, before answering. What a slower server pays beyond
 * its own work on this machine, where its load generator shares the two cores: its client waits
 * more often, and the writes that wake it cost more.
 */
const spinMicros = Number(process.env.BENCH_REFERENCE_SPIN_US ?? 0);
if (spinMicros > 0)
  app.addHook('onRequest', (_request, _reply, done) => {
    const until = process.hrtime.bigint() + BigInt(spinMicros * 1000);
    while (process.hrtime.bigint() < until);
    done();
  });
/** `/list/<family>?key=…` (`key2` for the status of workspace-status). */
app.get('/list/:family', async (request, reply) => {
  const { family } = request.params as { family: string };
  const { key, key2 } = request.query as { key: string; key2?: string };
  if (family === 'managed-by-definition') {
    if (owner.get(key) === undefined) return reply.code(404).send({ message: 'no such definition' });
    return { items: lists.definition!.page.all(key), total: lists.definition!.total.get(key) };
  }
  const list = lists[family];
  if (!list) return reply.code(404).send({ message: 'no such list' });
  const params = key2 === undefined ? [key] : [key, key2];
  const page = { items: list.page.all(...params) as BlockRow[], total: list.total.get(...params) as number };
  const answer = answers?.lists[family];
  if (!answer) return page;
  if (!textFrom) return reply.headers(answer.headers).send(answer.body);
  return reply.headers(answer.headers).send(pageText(page.items, page.total, 50, `workspaceIdentifier=${key}&status=${key2}`, textFrom));
});
const address = await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`reference listening on ${address}\n`);
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
