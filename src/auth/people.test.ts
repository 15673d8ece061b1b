import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import { createPostgresDatabase, DIALECTS, skipUnless } from '../../test/support/databases.js';
import { loadConfig } from '../config.js';
import { authorOf } from '../kinds/eventlog/model.js';
import { openDatabase, type Database } from '../store/database.js';
import { PersonAccess } from './people.js';
import { ADMIN_CODES } from './permissions.js';
import { isAdmin, isAdminEquivalent, isAllowed, listScope, seesWorkspace } from './policy.js';
import { ADMIN_ROLE_CODES, PROJECT_ROLE_CODES, WORKSPACE_ROLE_CODES } from './roles.js';

const now = new Date().toISOString();
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const sorted = (codes: Iterable<string>) => [...codes].sort();
const union = (...sets: (ReadonlySet<string> | undefined)[]) => sorted(new Set(sets.flatMap((set) => [...(set ?? [])])));

/** Role bindings as SCIM and the binding routes leave them, read by PersonAccess on both real databases. */
for (const dialect of DIALECTS) {
  describe(`PersonAccess [${dialect}]`, { skip: skipUnless(dialect) }, () => {
    let database: Database;
    let access: PersonAccess;
    let cleanup: () => Promise<void>;

    const user = (username: string, active = 1) =>
      database.db
        .insertInto('users')
        .values({
          username,
          uuid: randomUUID(),
          email: `${username}@example.com`,
          first_name: username,
          last_name: 'Test',
          euid: null,
          document: '{}',
          created_on: now,
          active,
          scim_attributes: null,
          updated_on: null,
        })
        .execute();
    const workspace = (name: string) => database.db.insertInto('workspaces').values({ name, document: '{}', created_on: now }).execute();
    const project = (ws: string, name: string) =>
      database.db
        .insertInto('projects')
        .values({ workspace: ws, name, payment_method: null, substitute_payment_method: null, document: '{}', created_on: now })
        .execute();
    const group = async (ws: string, name: string, members: string[]) => {
      await database.db
        .insertInto('user_groups')
        .values({ workspace: ws, name, collection: null, document: '{}', created_on: now, updated_on: null })
        .execute();
      for (const [position, username] of members.entries())
        await database.db.insertInto('group_members').values({ workspace: ws, group_name: name, username, position }).execute();
    };
    const bind = (b: { ws: string; role: string; username?: string; group?: string; project?: string; expiry?: string }) =>
      database.db
        .insertInto('role_bindings')
        .values({
          kind:
            b.project === undefined
              ? b.group === undefined
                ? 'meshWorkspaceUserBinding'
                : 'meshWorkspaceGroupBinding'
              : b.group === undefined
                ? 'meshProjectUserBinding'
                : 'meshProjectGroupBinding',
          name: randomUUID(),
          workspace: b.ws,
          project: b.project ?? null,
          workspace_role: b.project === undefined ? b.role : null,
          project_role: b.project === undefined ? null : b.role,
          username: b.username ?? null,
          group_name: b.group ?? null,
          collection: null,
          created_on: now,
          expiry_date: b.expiry ?? null,
        })
        .execute();

    before(async () => {
      const dir = mkdtempSync(path.join(tmpdir(), 'blockyard-people-'));
      const postgres = dialect === 'postgres' ? await createPostgresDatabase() : undefined;
      database = await openDatabase(
        loadConfig({
          BLOCKYARD_DATA_DIR: dir,
          ...(postgres
            ? { BLOCKYARD_DATABASE_URL: postgres.url, BLOCKYARD_MASTER_KEY: 'q83vEjRWeJq8A2kX8iZy4K2gQ5cQn7jvY0X3bS1tN8o=' }
            : {}),
        }),
        pino({ level: 'silent' }),
      );
      access = new PersonAccess(database.db);
      cleanup = async () => {
        await database.close();
        await postgres?.drop();
        rmSync(dir, { recursive: true, force: true });
      };
      for (const name of ['alice', 'bob', 'carol', 'dave', 'erin', 'frank', 'hank', 'ivan']) await user(name);
      await user('gina', 0);
      for (const name of ['ws-a', 'ws-b']) await workspace(name);
      await project('ws-a', 'prj');
      await database.db
        .insertInto('project_roles')
        .values({ name: 'constructor', display_name: 'Constructor', document: '{}', created_on: now })
        .execute();
      await group('ws-a', 'managers', ['bob']);
      await group('ws-a', 'readers', ['bob', 'hank']);
      await group('admin', 'platform', ['dave']);

      await bind({ ws: 'ws-a', role: 'Workspace Member', username: 'alice' });
      await bind({ ws: 'ws-a', role: 'Workspace Manager', group: 'managers' });
      await bind({ ws: 'ws-a', role: 'Workspace Owner', username: 'carol' });
      await bind({ ws: 'ws-a', role: 'project-admin', username: 'carol', project: 'prj' });
      await bind({ ws: 'ws-b', role: 'Workspace Member', username: 'carol' });
      await bind({ ws: 'admin', role: 'Workspace Manager', group: 'platform' });
      await bind({ ws: 'admin', role: 'Workspace Member', username: 'erin' });
      await bind({ ws: 'ws-a', role: 'Workspace Owner', username: 'frank', expiry: day(-1) });
      await bind({ ws: 'ws-b', role: 'Workspace Member', username: 'frank', expiry: day(0) });
      await bind({ ws: 'ws-a', role: 'Workspace Owner', username: 'gina' });
      // Hank's project binding (through a group) outlived his workspace binding; Ivan holds a role no code set names.
      await bind({ ws: 'ws-a', role: 'project-user', group: 'readers', project: 'prj' });
      await bind({ ws: 'ws-a', role: 'Workspace Member', username: 'ivan' });
      await bind({ ws: 'ws-a', role: 'constructor', username: 'ivan', project: 'prj' });
    });
    after(() => cleanup());

    it('grants a direct binding its role’s codes in its workspace, and nothing in another', async () => {
      const alice = await access.principalFor('alice', 'ws-a');
      assert.deepEqual(
        { ...alice, permissions: sorted(alice.permissions) },
        {
          type: 'person',
          id: 'alice',
          workspace: 'ws-a',
          permissions: sorted(WORKSPACE_ROLE_CODES.get('Workspace Member')!),
          admin: false,
        },
      );
      const elsewhere = await access.principalFor('alice', 'ws-b');
      assert.equal(elsewhere.permissions.size, 0);
      assert.equal(seesWorkspace(elsewhere, 'BUILDINGBLOCK', 'ws-a'), false);
      assert.equal(isAllowed(elsewhere, 'BUILDINGBLOCK', 'LIST', 'ws-b'), false);
      assert.equal((await access.principalFor('alice', undefined)).permissions.size, 0);
    });

    it('names a person in events as the original does: a User, by username', async () => {
      assert.deepEqual(authorOf({ principal: await access.principalFor('alice', 'ws-a') }), { authorType: 'User', identifier: 'alice' });
    });

    it('grants a group binding to the group’s members; project roles add to the workspace role', async () => {
      const bob = await access.principalFor('bob', 'ws-a');
      assert.deepEqual(
        sorted(bob.permissions),
        union(WORKSPACE_ROLE_CODES.get('Workspace Manager'), PROJECT_ROLE_CODES.get('project-user')),
      );
      const carol = await access.principalFor('carol', 'ws-a');
      assert.deepEqual(
        sorted(carol.permissions),
        union(WORKSPACE_ROLE_CODES.get('Workspace Owner'), PROJECT_ROLE_CODES.get('project-admin')),
      );
      assert.deepEqual(
        sorted((await access.principalFor('carol', 'ws-b')).permissions),
        sorted(WORKSPACE_ROLE_CODES.get('Workspace Member')!),
      );
      assert.deepEqual(await access.workspacesOf('carol'), ['ws-a', 'ws-b']);
      assert.deepEqual(await access.workspacesOf('bob'), ['ws-a']);
    });

    it('acts as a key of its workspace in every policy answer: a member reads and orders, a manager may not delete the workspace', async () => {
      const alice = await access.principalFor('alice', 'ws-a');
      assert.equal(isAllowed(alice, 'BUILDINGBLOCK', 'SAVE', 'ws-a'), true);
      assert.equal(isAllowed(alice, 'BUILDINGBLOCK', 'SAVE', 'ws-b'), false);
      assert.equal(isAllowed(alice, 'TENANT', 'SAVE', 'ws-a'), false);
      assert.equal(isAllowed(alice, 'APIKEY', 'LIST', 'ws-a'), false);
      assert.deepEqual(listScope(alice, 'BUILDINGBLOCK'), { workspace: 'ws-a' });
      assert.equal(isAdmin(alice), false);
      const bob = await access.principalFor('bob', 'ws-a');
      assert.equal(isAllowed(bob, 'BUILDINGBLOCKDEFINITION', 'SAVE', 'ws-a'), true);
      assert.equal(isAllowed(bob, 'WORKSPACE', 'DELETE', 'ws-a'), false);
      assert.equal(isAllowed(await access.principalFor('carol', 'ws-a'), 'WORKSPACE', 'DELETE', 'ws-a'), true);
    });

    it('gives roles in the admin workspace ADM_ codes wherever the person acts: a manager is admin-equivalent, a member reads', async () => {
      for (const acting of ['admin', 'ws-b', undefined]) {
        const dave = await access.principalFor('dave', acting);
        assert.equal(dave.admin, true);
        for (const code of ADMIN_CODES) assert.ok(dave.permissions.has(code), code);
        assert.equal(isAdminEquivalent(dave), true);
      }
      const erin = await access.principalFor('erin', 'ws-b');
      assert.equal(erin.admin, true);
      assert.deepEqual(sorted(erin.permissions), sorted(ADMIN_ROLE_CODES.get('Workspace Member')!));
      assert.equal(isAllowed(erin, 'BUILDINGBLOCK', 'LIST', 'ws-a'), true);
      assert.equal(isAllowed(erin, 'BUILDINGBLOCK', 'SAVE', 'ws-a'), false);
      assert.equal(isAllowed(erin, 'TFSTATE', 'LIST', 'ws-a'), false);
      assert.equal(isAdminEquivalent(erin), false);
      assert.equal((await access.principalFor('alice', 'admin')).admin, false);
    });

    it('grants nothing for an expired binding (one expiring today still holds), a deactivated user, a project role without a workspace role, or a role no code set names', async () => {
      assert.equal((await access.principalFor('frank', 'ws-a')).permissions.size, 0);
      assert.deepEqual(
        sorted((await access.principalFor('frank', 'ws-b')).permissions),
        sorted(WORKSPACE_ROLE_CODES.get('Workspace Member')!),
      );
      assert.deepEqual(await access.workspacesOf('frank'), ['ws-b']);
      assert.equal((await access.principalFor('gina', 'ws-a')).permissions.size, 0);
      assert.deepEqual(await access.workspacesOf('gina'), []);
      assert.equal((await access.principalFor('hank', 'ws-a')).permissions.size, 0);
      assert.deepEqual(await access.workspacesOf('hank'), []);
      assert.deepEqual(
        sorted((await access.principalFor('ivan', 'ws-a')).permissions),
        sorted(WORKSPACE_ROLE_CODES.get('Workspace Member')!),
      );
      assert.equal((await access.principalFor('nobody', 'ws-a')).permissions.size, 0);
    });

    it('answers from the bindings as they are now: a removed group membership counts at once', async () => {
      await database.db.deleteFrom('group_members').where('username', '=', 'bob').where('group_name', '=', 'managers').execute();
      const bob = await access.principalFor('bob', 'ws-a');
      assert.deepEqual(sorted(bob.permissions), []);
      assert.deepEqual(await access.workspacesOf('bob'), []);
    });
  });
}
