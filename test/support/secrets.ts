import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'kysely';
import type { Database } from '../../src/store/database.js';

/**
 * Every secret the tests saw travel: API key secrets, access and run tokens, API
 * user passwords and secret plaintexts sent to secret-bearing kinds. When a test server stops, its
 * log file and its database are searched for each of them in plaintext.
 */
const seen = new Set<string>();
const MIN_LENGTH = 10;

const SECRET_PATHS = /meshplatforms|meshbuildingblockdefinitionversions|meshbuildingblocks|meshobjects$|meshbuildingblockruns/;

function collect(text: string, pattern: RegExp): void {
  for (const match of text.matchAll(pattern)) if (match[1] && match[1].length >= MIN_LENGTH && !match[1].includes('\\')) seen.add(match[1]);
}

export function recordExchange(path: string, requestBody: string | undefined, responseText: string): void {
  collect(responseText, /"(?:clientSecret|access_token|runToken)":"([^"]+)"/g);
  if (requestBody === undefined) return;
  if (path.startsWith('/api/admin/apiusers')) collect(requestBody, /"password":"([^"]+)"/g);
  collect(requestBody, /client_secret=([^&]+)/g);
  if (SECRET_PATHS.test(path.split('?')[0]!)) collect(requestBody, /"plaintext":"([^"]+)"/g);
}

/** The secrets found in plaintext in the server's log and database, or [] (the suite then passes). */
export async function secretsAtRest(logFile: string, dataDir: string, database: Database | undefined): Promise<string[]> {
  if (seen.size === 0) return [];
  const haystacks: string[] = [];
  haystacks.push(await readFile(logFile, 'utf8').catch(() => ''));
  for (const file of ['blockyard.db', 'blockyard.db-wal'])
    haystacks.push((await readFile(path.join(dataDir, file)).catch(() => Buffer.alloc(0))).toString('latin1'));
  if (database?.dialect === 'postgres') {
    const { rows } = await sql<{
      table_name: string;
    }>`select table_name from information_schema.tables where table_schema = 'public'`.execute(database.db);
    for (const { table_name } of rows) {
      const dump = await sql<{ text: string | null }>`select json_agg(t)::text as text from ${sql.table(table_name)} t`.execute(
        database.db,
      );
      haystacks.push(dump.rows[0]?.text ?? '');
    }
  }
  return [...seen].filter((secret) => haystacks.some((haystack) => haystack.includes(secret)));
}
