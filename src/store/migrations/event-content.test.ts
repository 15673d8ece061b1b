import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { describeUpgrade } from '../../../test/support/upgrades.js';

const RUN = '00000000-0000-4000-8000-0000000000a1';
const BLOCK = '00000000-0000-4000-8000-0000000000b1';

/** Events as the code before 0025 wrote them: the internal model as content. */
const OLD_EVENTS = [
  {
    title: 'Building Block Run Status Changed',
    description: `run 2 (APPLY) of meshBuildingBlock ${BLOCK} is FAILED`,
    content: {
      uuid: RUN,
      blockUuid: BLOCK,
      runNumber: 2,
      behavior: 'APPLY',
      status: 'FAILED',
      buildingBlock: { uuid: BLOCK, displayName: 'b' },
      steps: [{ stepId: 'a', systemMessage: 'terraform apply -var pw=x' }],
    },
    previous: { uuid: RUN, blockUuid: BLOCK, status: 'IN_PROGRESS', buildingBlock: { uuid: BLOCK, displayName: 'b' } },
  },
  {
    title: 'API Key Created',
    description: 'meshApiKey k was created',
    content: { uuid: 'k', displayName: 'key', permissions: ['PROJECT_LIST'], secretHash: 'scrypt$abc', revision: 1 },
    previous: null,
  },
  {
    title: 'User Changed',
    description: 'meshUser u was changed',
    content: { username: 'u', scim: { externalId: 'e' }, firstName: 'A' },
    previous: { username: 'u', scim: { externalId: 'e' }, firstName: 'B' },
  },
  {
    title: 'Workspace Created',
    description: 'meshWorkspace w was created',
    content: { name: 'w', createdOn: '2026-11-27T00:00:00.000Z' },
    previous: null,
  },
];

/** Old events keep reading as before except for what a reader of their workspace may not read (0025). */
describeUpgrade(
  'upgrading through 0025',
  '0022_shared_runner_all_types',
  'takes operator-only run data, key hashes and SCIM payloads out of the events written before',
  async ({ db, upgrade }) => {
    for (const [index, event] of OLD_EVENTS.entries()) {
      await sql`insert into events (seq, uuid, created_at, title, event_type, description, author_type, author_identifier, content, previous_content)
      values (${index + 1}, ${`00000000-0000-4000-8000-00000000000${index + 1}`}, '2026-11-27T00:00:00.000Z', ${event.title}, 'Changed', ${event.description}, 'System', 'system',
              ${JSON.stringify(event.content)}, ${event.previous === null ? null : JSON.stringify(event.previous)})`.execute(db);
    }

    await upgrade();

    const { rows } = await sql<{
      description: string;
      content: string;
      previous_content: string | null;
    }>`select description, content, previous_content from events order by seq`.execute(db);
    const [run, key, user, workspace] = rows.map((row) => ({
      description: row.description,
      content: JSON.parse(row.content),
      previous: row.previous_content === null ? null : JSON.parse(row.previous_content),
    }));
    assert.deepEqual(run, {
      description: `a run of meshBuildingBlock ${BLOCK} is FAILED`,
      content: {
        kind: 'meshBuildingBlockRun',
        apiVersion: 'v1',
        metadata: { uuid: RUN },
        spec: { buildingBlock: { uuid: BLOCK } },
        status: 'FAILED',
      },
      previous: {
        kind: 'meshBuildingBlockRun',
        apiVersion: 'v1',
        metadata: { uuid: RUN },
        spec: { buildingBlock: { uuid: BLOCK } },
        status: 'IN_PROGRESS',
      },
    });
    assert.deepEqual(key!.content, { uuid: 'k', displayName: 'key', permissions: ['PROJECT_LIST'] });
    assert.deepEqual(
      [user!.content, user!.previous],
      [
        { username: 'u', firstName: 'A' },
        { username: 'u', firstName: 'B' },
      ],
    );
    assert.deepEqual(workspace, { description: OLD_EVENTS[3]!.description, content: OLD_EVENTS[3]!.content, previous: null });
  },
);
