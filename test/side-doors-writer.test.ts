/**
 * The operator's side door into the database: `blockyard admin` is a process of its own writing the
 * same database as the server. A request the server refuses must not keep that database locked, or
 * the operator cannot revoke a credential (here a SCIM token) until some later request happens to
 * succeed. Attacked as a low-privilege key would: a refused write (409), then at once, with no
 * successful write in between, the operator creates and deletes a SCIM token.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { before, it } from 'node:test';
import type { ApiClient } from './support/client.js';
import { exited, run } from './support/cli.js';
import { clientWithKey } from './support/identity.js';
import { describeEachDatabase } from './support/server.js';
import { createProject, createWorkspace, io, PATHS, PROJECT, projectBody, unique } from './support/structure.js';

/** How long the admin CLI waits for the database's write lock: a locked database fails it within this. */
const LOCK_WAIT_MS = 1000;

describeEachDatabase('A refused write leaves no lock behind', (ctx) => {
  let member: ApiClient;
  let workspace: string;
  let project: string;

  /** `blockyard admin …` in a process of its own, on the server's database and keys. */
  const admin = (args: string[]) =>
    run(path.join(ctx.server.dataDir, 'cli-config.yaml'), ['admin', ...args], {
      env: { ...ctx.server.env, BLOCKYARD_DB_TIMEOUT_MS: String(LOCK_WAIT_MS) },
    });

  /** A project that exists, created again by a key that may only save projects: 409. */
  async function refusedWrite(): Promise<void> {
    const response = await member.post(PATHS.projects, projectBody(workspace, project), { headers: io(PROJECT) });
    assert.equal(response.status, 409, response.text);
  }

  before(async () => {
    workspace = unique('writer');
    project = unique('taken');
    await createWorkspace(ctx.client, workspace);
    await createProject(ctx.client, workspace, project);
    ({ client: member } = await clientWithKey(ctx.client, workspace, ['PROJECT_LIST', 'PROJECT_SAVE']));
  });

  it('lets the operator create and delete a SCIM token right after a refused write; the deleted token is refused', async () => {
    await refusedWrite();
    const created = exited(await admin(['scim-token', 'create', '--name', 'side-door']), 0);
    const [, id, secret] = /SCIM token (\S+) [\s\S]*bearer token \(shown once\): (\S+)/.exec(created.stdout)!;
    await refusedWrite();
    const deleted = exited(await admin(['scim-token', 'delete', id!]), 0);
    assert.match(deleted.stdout, /^deleted SCIM token/);
    const scim = await ctx.client.get('/scim/v2/ServiceProviderConfig', {
      headers: { authorization: `Bearer ${secret}`, accept: 'application/scim+json' },
    });
    assert.equal(scim.status, 401, scim.text);
    // The server itself still writes: the refusals cost it nothing.
    assert.equal((await ctx.client.post(PATHS.projects, projectBody(workspace, unique('after')), { headers: io(PROJECT) })).status, 201);
  });
});
