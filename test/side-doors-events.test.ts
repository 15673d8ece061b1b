/**
 * The event log is a side door to every kind: an event filed under a workspace must carry no more than
 * the kind's own GET shows a reader of that workspace. Attacked from the consumer's workspace (a key
 * holding EVENTLOG_LIST and BUILDINGBLOCK_LIST) through the list, by uuid and on the live stream.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { it } from 'node:test';
import { allEvents, EVENT_LOG, EVENTS, type Event } from './support/events.js';
import { clientWithKey, createKey } from './support/identity.js';
import {
  asRun,
  claimRun,
  createBlock,
  getRun,
  readBlock,
  register,
  report,
  runnerDefinition,
  runWorld,
  SHARED_RUNNERS,
  tenantTarget,
  waitFor,
} from './support/runs.js';
import { runAdminCommand } from '../src/admin-cli.js';
import { loadConfig } from '../src/config.js';
import { media } from './support/client.js';
import { describeEachDatabase, UNLIMITED_AUTH_FAILURES } from './support/server.js';
import { openStream } from './support/sse.js';
import { createWorkspace, unique } from './support/structure.js';

const SCIM_USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const SCIM_GROUP = 'urn:ietf:params:scim:schemas:core:2.0:Group';

/** Every key of `content`, at any depth, also in `answer` (arrays: each item against the answer's first). */
function keysOutside(content: unknown, answer: unknown, at = ''): string[] {
  if (Array.isArray(content))
    return Array.isArray(answer) && answer.length > 0
      ? content.flatMap((item, index) => keysOutside(item, answer[0], `${at}[${index}]`))
      : [];
  if (content === null || typeof content !== 'object') return [];
  if (answer === null || typeof answer !== 'object') return [`${at} (an object where the answer has ${JSON.stringify(answer)})`];
  return Object.entries(content).flatMap(([key, value]) =>
    key in answer ? keysOutside(value, (answer as Record<string, unknown>)[key], `${at}.${key}`) : [`${at}.${key}`],
  );
}

describeEachDatabase('side doors: event content is the kind’s own answer to the reader', (ctx) => {
  it('a consumer reads no operator-only run data in events: not in the list, not by uuid, not on the stream', async () => {
    const admin = ctx.client;
    const world = await runWorld(admin);
    const { client: consumer, token } = await clientWithKey(admin, world.consumer, ['EVENTLOG_LIST', 'BUILDINGBLOCK_LIST']);
    const stream = await openStream(ctx.server.url, await readFile(path.join(ctx.server.dataDir, 'tls', 'cert.pem'), 'utf8'), EVENTS, {
      authorization: `Bearer ${token}`,
    });
    try {
      // The platform team's definition does not make runs transparent: its runs are the operators'.
      const definition = await runnerDefinition(admin, world.provider, null);
      const block = await createBlock(admin, { versionUuid: definition.versionUuid, target: tenantTarget(world.tenantUuid) });
      const claimed = await claimRun(admin, SHARED_RUNNERS.TERRAFORM, { headers: {} });
      const runUuid = claimed.metadata.uuid as string;
      const systemSecret = `terraform apply -var db_admin=${randomUUID()}`;
      const userNote = `note-${randomUUID()}`;
      const asRunner = asRun(admin, claimed);
      assert.equal(
        (await register(asRunner, runUuid, { source: { id: 'ci' }, steps: [{ id: 'apply', displayName: 'Apply' }] })).status,
        200,
      );
      assert.equal(
        await report(asRunner, runUuid, 'ci', {
          steps: [{ id: 'apply', status: 'IN_PROGRESS', userMessage: userNote, systemMessage: systemSecret }],
        }),
        false,
      );
      assert.equal(
        await report(asRunner, runUuid, 'ci', {
          status: 'FAILED',
          steps: [{ id: 'apply', status: 'FAILED', systemMessage: systemSecret }],
        }),
        false,
      );
      await waitFor('the block to fail', async () =>
        (await readBlock(admin, block.metadata.uuid)).status.status === 'FAILED' ? true : undefined,
      );
      // The direct route refuses the consumer the run.
      assert.equal((await getRun(consumer, runUuid)).status, 403);

      const listed = await allEvents(consumer);
      const runEvents = listed.filter((event) => event.spec.title.startsWith('Building Block Run'));
      assert.ok(runEvents.length >= 4, `the consumer sees its block's run events (${runEvents.length})`);
      const byUuid = await Promise.all(
        listed.map(
          async (event) => (await consumer.get(`${EVENTS}/${event.metadata.uuid}`, { headers: { accept: EVENT_LOG } })).json as Event,
        ),
      );
      // The stream opened before the block was ordered: it delivers the block's and its runs' events.
      const streamed = (await stream.waitFor(listed.filter((event) => event.spec.title.startsWith('Building Block')).length)).map(
        (event) => event.json as Event,
      );
      for (const [door, events] of Object.entries({ list: listed, 'by uuid': byUuid, stream: streamed })) {
        const text = JSON.stringify(events);
        for (const secret of [systemSecret, userNote])
          assert.ok(!text.includes(secret), `${door}: an event shows the consumer what GET of the run refuses (${secret.slice(0, 24)}…)`);
        for (const event of events.filter((e) => e.spec.title.startsWith('Building Block Run'))) {
          // What the block shows of its latest run, nothing more.
          assert.deepEqual(
            Object.keys(event.spec.content).sort(),
            ['apiVersion', 'kind', 'metadata', 'spec', 'status'],
            `${door}: ${event.spec.title}`,
          );
          assert.deepEqual(event.spec.content.spec, { buildingBlock: { uuid: block.metadata.uuid } });
          assert.doesNotMatch(event.spec.description, /run \d+ \(/, `${door}: the description names the run's number`);
        }
      }
    } finally {
      stream.close();
    }
  });

  it('a transparent run’s events show the consumer what its GET and log show: user messages, never system messages', async () => {
    const admin = ctx.client;
    const world = await runWorld(admin);
    const { client: consumer } = await clientWithKey(admin, world.consumer, ['EVENTLOG_LIST', 'BUILDINGBLOCK_LIST']);
    const definition = await runnerDefinition(admin, world.provider, null, { runTransparency: true });
    const block = await createBlock(admin, { versionUuid: definition.versionUuid, target: tenantTarget(world.tenantUuid) });
    const claimed = await claimRun(admin, SHARED_RUNNERS.TERRAFORM, { headers: {} });
    const runUuid = claimed.metadata.uuid as string;
    const systemSecret = `system-${randomUUID()}`;
    const asRunner = asRun(admin, claimed);
    assert.equal((await register(asRunner, runUuid, { source: { id: 'ci' }, steps: [{ id: 'apply', displayName: 'Apply' }] })).status, 200);
    assert.equal(
      await report(asRunner, runUuid, 'ci', {
        status: 'SUCCEEDED',
        steps: [{ id: 'apply', status: 'SUCCEEDED', userMessage: 'applied', systemMessage: systemSecret }],
      }),
      false,
    );
    await waitFor('the block to succeed', async () =>
      (await readBlock(admin, block.metadata.uuid)).status.status === 'SUCCEEDED' ? true : undefined,
    );
    const read = await getRun(consumer, runUuid);
    assert.equal(read.status, 200, read.text);
    const events = (await allEvents(consumer)).filter((event) => event.spec.title.startsWith('Building Block Run'));
    assert.ok(!JSON.stringify(events).includes(systemSecret), 'a system message reached the consumer through an event');
    const ended = events.find((event) => event.spec.title === 'Building Block Run Status Changed')!;
    assert.deepEqual(
      ended.spec.content.steps.map((step: Event) => [step.id, step.userMessage, step.systemMessage]),
      [['apply', 'applied', null]],
    );
    const { _links, ...answer } = read.json;
    assert.deepEqual(
      keysOutside({ ...ended.spec.content, steps: undefined }, { ...answer, steps: undefined }),
      [],
      'the event holds fields the run’s GET does not show the consumer',
    );
  });

  it('no event holds what its object’s GET does not show: keys’ secret hashes, internal fields', async () => {
    const admin = ctx.client;
    const world = await runWorld(admin);
    const key = await createKey(admin, world.consumer, ['PROJECT_LIST']);
    const { client: reader } = await clientWithKey(admin, world.consumer, [
      'EVENTLOG_LIST',
      'APIKEY_LIST',
      'WORKSPACE_LIST',
      'PROJECT_LIST',
      'TENANT_LIST',
    ]);
    const events = await allEvents(reader);
    const text = JSON.stringify(events);
    for (const internal of ['secretHash', '"revision"', 'document', 'ciphertext'])
      assert.ok(!text.includes(internal), `an event carries ${internal}`);
    const paths: Record<string, string> = {
      meshApiKey: '/api/meshobjects/meshapikeys',
      meshWorkspace: '/api/meshobjects/meshworkspaces',
      meshTenant: '/api/meshobjects/meshtenants',
    };
    let compared = 0;
    for (const event of events) {
      const { content } = event.spec;
      const base = paths[content.kind as string];
      if (!base) continue;
      const id = content.kind === 'meshWorkspace' ? content.metadata.name : content.metadata.uuid;
      const answer = await admin.get(`${base}/${id}`, {
        headers: { accept: `application/vnd.vendor.api.${(content.kind as string).toLowerCase()}.${content.apiVersion}.hal+json` },
      });
      if (answer.status !== 200) continue;
      assert.deepEqual(keysOutside(content, answer.json), [], `${event.spec.title}: fields its GET does not show`);
      compared++;
    }
    assert.ok(compared >= 3, `events compared with their objects' answers: ${compared}`);
    assert.ok(events.some((event) => event.spec.content.metadata?.uuid === key.uuid));
  });
});

describeEachDatabase(
  'side doors: what SCIM provisions reaches a workspace’s event readers only as the kind answers it',
  (ctx) => {
    it('a SCIM group’s events show its workspace the group’s answer, another workspace nothing', async () => {
      const admin = ctx.client;
      const [home, other] = [unique('scim-home'), unique('scim-other')];
      await Promise.all([createWorkspace(admin, home), createWorkspace(admin, other)]);
      let printed = '';
      await runAdminCommand(loadConfig(ctx.server.env), ['scim-token', 'create', '--name', unique('idp')], (line) => (printed += line));
      const token = /bearer token \(shown once\): (\S+)/.exec(printed)![1]!;
      const scim = admin.with({
        authorization: `Bearer ${token}`,
        'content-type': 'application/scim+json',
        accept: 'application/scim+json',
      });
      const user = await scim.request('POST', '/scim/v2/Users', {
        body: {
          schemas: [SCIM_USER],
          userName: unique('scim.person'),
          externalId: `ext-${randomUUID()}`,
          name: { givenName: 'S', familyName: 'P' },
          emails: [{ primary: true, value: `${randomUUID()}@example.com` }],
        },
      });
      assert.equal(user.status, 201, user.text);
      const externalId = `grp-${randomUUID()}`;
      const group = await scim.request('POST', '/scim/v2/Groups', {
        body: { schemas: [SCIM_GROUP], displayName: `${home}.developers`, externalId, members: [{ value: user.json.id }] },
      });
      assert.equal(group.status, 201, group.text);

      const { client: member } = await clientWithKey(admin, home, ['EVENTLOG_LIST', 'WORKSPACEUSERGROUP_LIST']);
      const events = (await allEvents(member)).filter((event) => event.spec.title.startsWith('Workspace Group'));
      assert.ok(events.length > 0, 'the workspace sees its group’s events');
      const answer = await admin.get(`/api/meshobjects/meshworkspaceusergroups/${home}.developers`, {
        headers: { accept: media('meshworkspaceusergroup', 'v1') },
      });
      assert.equal(answer.status, 200, answer.text);
      for (const event of events)
        assert.deepEqual(keysOutside(event.spec.content, answer.json), [], `${event.spec.title}: fields the group's GET does not show`);

      const { client: stranger } = await clientWithKey(admin, other, ['EVENTLOG_LIST', 'WORKSPACEUSERGROUP_LIST']);
      assert.deepEqual(
        (await allEvents(stranger)).filter(
          (event) => JSON.stringify(event).includes(`${home}.developers`) || JSON.stringify(event).includes(externalId),
        ),
        [],
      );
      const one = await stranger.get(`${EVENTS}/${events[0]!.metadata.uuid}`, { headers: { accept: EVENT_LOG } });
      assert.equal(one.status, 404, one.text);
    });
  },
  UNLIMITED_AUTH_FAILURES,
);
