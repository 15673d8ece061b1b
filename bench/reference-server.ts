import { readFileSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import Fastify from 'fastify';

/**
 * Calibration points, not scenarios: bare Fastify over the same TLS answering from the same SQLite
 * file with prepared statements — no authentication, permissions, negotiation or representation —
 * a building block row by uuid, and a page of 50 rows of a workspace and status with its total.
 * They show what this machine allows above the baseline.
 */
const [dataDir] = process.argv.slice(2) as [string];
const db = new SQLite(path.join(dataDir, 'blockyard.db'), { readonly: true });
const byUuid = db.prepare('select * from building_blocks where uuid = ?');
const page = db.prepare('select * from building_blocks where workspace = ? and status = ? order by created_on, uuid limit 50');
const total = db.prepare('select count(*) as total from building_blocks where workspace = ? and status = ?').pluck();
const app = Fastify({ https: { cert: readFileSync(path.join(dataDir, 'tls/cert.pem')), key: readFileSync(path.join(dataDir, 'tls/key.pem')), minVersion: 'TLSv1.2' }, keepAliveTimeout: 72_000 });
app.get('/api/meshobjects/meshbuildingblocks/:uuid', async (request, reply) => {
  const row = byUuid.get((request.params as { uuid: string }).uuid);
  if (!row) return reply.code(404).send({ message: 'not found' });
  return row;
});
app.get('/list', async (request) => {
  const { workspace, status } = request.query as { workspace: string; status: string };
  return { items: page.all(workspace, status), total: total.get(workspace, status) };
});
const address = await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`reference listening on ${address}\n`);
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
