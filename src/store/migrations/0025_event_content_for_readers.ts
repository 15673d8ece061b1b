import { sql, type Kysely } from 'kysely';

/**
 * Events are now written with what the kind's GET shows a reader of the event's workspace
 * (`EventCodec`). Events written before held the internal model instead; they keep reading as they
 * did, except for what that rule forbids, which is taken out here:
 * - a run's events (filed under its block's workspace) keep only what the block's answer shows of its
 *   latest run: its uuid, its block and its status; their description no longer names the run's
 *   number and behaviour (the run's steps, system messages, outputs and trigger were operator-only);
 * - an API key's events lose its secret's hash and revision;
 * - every other event loses any `systemMessage` and any `scim` attributes (a SCIM client's payload).
 * Rows are read and rewritten in batches, in `seq` order.
 */
const BATCH = 500;

interface Row {
  seq: number | string;
  title: string;
  description: string;
  content: string;
  previous_content: string | null;
}

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => value !== null && typeof value === 'object' && !Array.isArray(value);

/** `value` without the keys in `names`, at any depth. */
function without(value: unknown, names: ReadonlySet<string>): unknown {
  if (Array.isArray(value)) return value.map((item) => without(item, names));
  if (!isObject(value)) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => !names.has(key))
      .map(([key, item]) => [key, without(item, names)]),
  );
}

/** A run's event content as the block's readers may read it (its model had `uuid`, `blockUuid`, `status`). */
function runAsBlockShowsIt(content: unknown): Json {
  const run = isObject(content) ? content : {};
  const block = isObject(run.buildingBlock) ? run.buildingBlock.uuid : run.blockUuid;
  return {
    kind: 'meshBuildingBlockRun',
    apiVersion: 'v1',
    metadata: { uuid: run.uuid },
    spec: { buildingBlock: { uuid: block } },
    status: run.status,
  };
}

const RUN_TITLE = 'Building Block Run ';
const API_KEY_TITLE = 'API Key ';
const ANYWHERE = new Set(['systemMessage', 'scim']);
const OF_API_KEYS = new Set([...ANYWHERE, 'secretHash', 'revision']);

function rewrite(row: Row): Omit<Row, 'seq' | 'title'> {
  const parse = (text: string | null) => (text === null ? null : (JSON.parse(text) as unknown));
  const content = parse(row.content);
  const previous = parse(row.previous_content);
  const text = (value: unknown) => (value === null ? null : JSON.stringify(value));
  if (row.title.startsWith(RUN_TITLE)) {
    return {
      description: row.description.replace(/^run \d+ \([A-Z]+\) of /, 'a run of '),
      content: JSON.stringify(runAsBlockShowsIt(content)),
      previous_content: previous === null ? null : JSON.stringify(runAsBlockShowsIt(previous)),
    };
  }
  const names = row.title.startsWith(API_KEY_TITLE) ? OF_API_KEYS : ANYWHERE;
  return {
    description: row.description,
    content: JSON.stringify(without(content, names)),
    previous_content: text(without(previous, names)),
  };
}

export async function up(db: Kysely<unknown>): Promise<void> {
  let after: number | string = -1;
  for (;;) {
    const { rows } = await sql<Row>`
      select seq, title, description, content, previous_content from events
      where seq > ${after}
        and (title like ${`${RUN_TITLE}%`} or title like ${`${API_KEY_TITLE}%`} or content like '%"systemMessage"%' or content like '%"scim"%'
             or previous_content like '%"systemMessage"%' or previous_content like '%"scim"%')
      order by seq limit ${BATCH}`.execute(db);
    for (const row of rows) {
      const { description, content, previous_content } = rewrite(row);
      await sql`update events set description = ${description}, content = ${content}, previous_content = ${previous_content} where seq = ${row.seq}`.execute(
        db,
      );
    }
    if (rows.length < BATCH) return;
    after = rows[rows.length - 1]!.seq;
  }
}

/** What was taken out is gone: there is nothing to restore. */
export async function down(): Promise<void> {}
