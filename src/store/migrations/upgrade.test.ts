import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { describeUpgrade } from '../../../test/support/upgrades.js';
import { EventStore } from '../../kinds/eventlog/store.js';

/**
 * A database written before migrations 0018 (event numbers from a sequence) and 0019 (usage counts in
 * stripes) keeps its counts and numbers across them, on both databases.
 */
describeUpgrade(
  'upgrading through 0018 and 0019',
  '0017_communications',
  "keeps every definition's block count and continues the event numbers after the last one",
  async ({ db, upgrade }) => {
    // As the code before 0018 left it: counts on the definitions, two events, the numbers' row at 2.
    const now = '2026-11-27T00:00:00.000Z';
    await sql`insert into workspaces (name, document, created_on) values ('ws', '{}', ${now})`.execute(db);
    for (const [uuid, count] of [
      ['00000000-0000-4000-8000-000000000d01', 3],
      ['00000000-0000-4000-8000-000000000d02', 0],
    ] as const) {
      await sql`insert into definitions (uuid, owned_by_workspace, display_name, target_type, latest_version, latest_released_version, latest_published_version, usage_count, document, created_on)
      values (${uuid}, 'ws', 'd', 'TENANT_LEVEL', 1, 0, 0, ${count}, '{}', ${now})`.execute(db);
    }
    for (const seq of [1, 2]) {
      await sql`insert into events (seq, uuid, created_at, title, event_type, description, author_type, author_identifier, content)
      values (${seq}, ${`00000000-0000-4000-8000-00000000000${seq}`}, ${now}, 't', 'Created', 'd', 'System', 'system', '{}')`.execute(db);
    }
    await sql`update event_sequence set last = 2`.execute(db);

    await upgrade();

    const { rows } = await sql<{
      uuid: string;
      blocks: number | string;
    }>`select d.uuid, coalesce(sum(u.blocks), 0) as blocks from definitions d left join definition_usage u on u.definition_uuid = d.uuid group by d.uuid order by d.uuid`.execute(
      db,
    );
    assert.deepEqual(
      rows.map((row) => [row.uuid, Number(row.blocks)]),
      [
        ['00000000-0000-4000-8000-000000000d01', 3],
        ['00000000-0000-4000-8000-000000000d02', 0],
      ],
    );
    const [next] = await db.transaction().execute((trx) =>
      new EventStore(trx).append([{ title: 'after', eventType: 'Created', description: 'after the upgrade', content: {} }], {
        authorType: 'System',
        identifier: 'system',
      }),
    );
    assert.equal(next!.seq, 3);
  },
);
