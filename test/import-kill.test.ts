import assert from 'node:assert/strict';
import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { CHAOS_LOG_DIR, serverEnv, spawnChild, type Child } from './support/chaos.js';
import { ApiClient, media } from './support/client.js';
import { createPostgresDatabase, type Dialect, DIALECTS, skipUnless } from './support/databases.js';
import { allEvents, titlesOf } from './support/events.js';
import { basic } from './support/server.js';
import { IMPORT_JSON, io, WORKSPACE, workspaceBody, type Json } from './support/structure.js';

/**
 * An import into a meshObjectCollection is one transaction: a server SIGKILLed
 * while the import runs leaves, after its restart, either all of it — its groups and the deletion of
 * the collection's groups it no longer names, with their events — or none of it, and all of it if
 * the import was acknowledged. Each cycle imports into a collection of its own workspace and kills
 * the server part-way through the time such an import took on this machine a moment before.
 */
const USER = { username: 'import-kill-admin', password: 'import-kill-admin-password-1' };
const AUTH = basic(USER.username, USER.password);
const USERS = media('meshuser', 'v2');
const GROUPS = media('meshworkspaceusergroup', 'v1');
const COLLECTION = 'application/vnd.vendor.api.meshobjectcollection.v1+json';
const OLD = 10;
const NEW = 150;
/** Where in the measured duration of the import the kill falls, one cycle each. */
const KILL_AT = [0.15, 0.35];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const groupObject = (workspace: string, name: string, member: string): Json => ({
  apiVersion: 'v1',
  kind: 'meshWorkspaceUserGroup',
  metadata: { name, ownedByWorkspace: workspace },
  spec: { displayName: name, members: [member] },
});

for (const dialect of DIALECTS as readonly Dialect[]) {
  const skip = skipUnless(dialect);
  describe(`import into a collection across a SIGKILL [${dialect}]`, { skip }, () => {
    it('stores all of the import (writes, deletions, events) or none of it, and all of it once acknowledged', async () => {
      const dataDir = await mkdtemp(path.join(tmpdir(), 'blockyard-import-kill-'));
      const database = dialect === 'postgres' ? await createPostgresDatabase() : undefined;
      await mkdir(CHAOS_LOG_DIR, { recursive: true });
      const log = createWriteStream(path.join(CHAOS_LOG_DIR, `import-kill-${dialect}-${process.pid}-${Date.now()}.log`));
      const env = {
        ...serverEnv(dataDir, database?.url),
        BLOCKYARD_ADMIN_USERNAME: USER.username,
        BLOCKYARD_ADMIN_PASSWORD: USER.password,
      };
      let child: Child | undefined;
      let client: ApiClient | undefined;
      const start = async () => {
        child = spawnChild(env, log);
        const url = await child.start();
        client = new ApiClient(url, await readFile(path.join(dataDir, 'tls', 'cert.pem'), 'utf8'), { authorization: AUTH });
        return client;
      };
      const expectStatus = async (response: Promise<{ status: number; text: string }>, status: number) => {
        const got = await response;
        assert.equal(got.status, status, got.text);
      };
      /** A workspace with a collection holding OLD groups; the import that replaces them with NEW others. */
      const prepare = async (api: ApiClient, name: string, member: string) => {
        await expectStatus(api.post('/api/meshobjects/meshworkspaces', workspaceBody(name), { headers: io(WORKSPACE) }), 201);
        await expectStatus(
          api.post(
            '/api/meshobjectcollections',
            { name, owner: 'kill-test', description: '', ownedByWorkspace: name },
            { headers: { 'content-type': COLLECTION } },
          ),
          201,
        );
        const old = Array.from({ length: OLD }, (_, i) => `old-${i}`);
        await expectStatus(
          api.put(
            `/api/meshobjects?meshObjectCollection=${name}`,
            old.map((group) => groupObject(name, group, member)),
            { headers: io(IMPORT_JSON) },
          ),
          200,
        );
        const fresh = Array.from({ length: NEW }, (_, i) => `new-${i}`);
        const send = (to: ApiClient) =>
          to.put(
            `/api/meshobjects?meshObjectCollection=${name}`,
            fresh.map((group) => groupObject(name, group, member)),
            { headers: io(IMPORT_JSON) },
          );
        return { old, fresh, send };
      };
      try {
        let api = await start();
        const member = 'kill-member';
        await expectStatus(
          api.post(
            '/api/meshobjects/meshusers',
            {
              apiVersion: 'v2',
              kind: 'meshUser',
              metadata: { name: member },
              spec: { email: 'kill@example.com', firstName: 'K', lastName: 'M' },
            },
            { headers: io(USERS) },
          ),
          201,
        );
        // How long such an import takes here and now.
        const timing = await prepare(api, 'kill-timing', member);
        const began = Date.now();
        await expectStatus(timing.send(api), 200);
        const duration = Date.now() - began;

        for (const [cycle, fraction] of KILL_AT.entries()) {
          const workspace = `kill-${cycle}`;
          const { old, fresh, send } = await prepare(api, workspace, member);
          let acknowledged = false;
          const sent = send(api).then(
            (response) => (acknowledged = response.status === 200),
            () => undefined, // the connection died with the server
          );
          await sleep(duration * fraction);
          child!.process.kill('SIGKILL');
          await child!.exited;
          await sent;
          await client!.close();
          api = await start();

          const listed = await api.get(`/api/meshobjects/meshworkspaceusergroups?workspaceIdentifier=${workspace}&size=350`, {
            headers: { accept: GROUPS },
          });
          assert.equal(listed.status, 200, listed.text);
          const groups = ((listed.json._embedded?.meshWorkspaceUserGroups ?? []) as Json[])
            .map((group) => group.metadata.name as string)
            .sort();
          const titles = titlesOf(await allEvents(api, `workspaceIdentifier=${workspace}`));
          const count = (title: string) => titles.filter((t) => t === title).length;
          const all = groups.length === NEW && fresh.every((group) => groups.includes(group));
          if (all) {
            assert.deepEqual(
              [count('Workspace Group Created'), count('Workspace Group Deleted')],
              [OLD + NEW, OLD],
              `cycle ${cycle}: the import is stored but not its events`,
            );
          } else {
            assert.ok(
              !acknowledged,
              `cycle ${cycle}: the import was acknowledged, but ${groups.length - OLD} of its ${NEW} groups are stored`,
            );
            assert.deepEqual(
              groups,
              [...old].sort(),
              `cycle ${cycle}: part of the import is stored (killed ${Math.round(duration * fraction)} ms into it)`,
            );
            assert.deepEqual(
              [count('Workspace Group Created'), count('Workspace Group Deleted')],
              [OLD, 0],
              `cycle ${cycle}: events of an import that is not stored`,
            );
          }
        }
      } finally {
        child?.process.kill('SIGKILL');
        await child?.exited;
        await client?.close();
        log.end();
        await database?.drop();
        await rm(dataDir, { recursive: true, force: true });
      }
    });
  });
}
