import { readFileSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import Fastify from 'fastify';

/**
 * A calibration point, not a scenario: bare Fastify over the same TLS answering a building block row
 * by uuid from the same SQLite file with one prepared statement — no authentication, permissions,
 * negotiation or representation. It shows what this machine allows above the baseline.
 */
const [dataDir] = process.argv.slice(2) as [string];
const db = new SQLite(path.join(dataDir, 'blockyard.db'), { readonly: true });
const byUuid = db.prepare('select * from building_blocks where uuid = ?');
const app = Fastify({ https: { cert: readFileSync(path.join(dataDir, 'tls/cert.pem')), key: readFileSync(path.join(dataDir, 'tls/key.pem')), minVersion: 'TLSv1.2' }, keepAliveTimeout: 72_000 });
app.get('/api/meshobjects/meshbuildingblocks/:uuid', async (request, reply) => {
  const row = byUuid.get((request.params as { uuid: string }).uuid);
  if (!row) return reply.code(404).send({ message: 'not found' });
  return row;
});
const address = await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`reference listening on ${address}\n`);
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
