import assert from 'node:assert/strict';
import { it } from 'node:test';
import { describeEachServiceDatabase } from '../../test/support/service-database.js';
import { CompiledQueries } from './compiled-queries.js';
import { inTransaction, UnitOfWork, type Db } from './transaction.js';

describeEachServiceDatabase('compiled queries', (ctx) => {
  it('inserts rows with each value in its column, whatever the number of rows and however often a shape is used', async () => {
    const queries = new CompiledQueries(ctx.database.db, 'compiled-queries-test');
    const row = (name: string) => ({ name, document: `{"n":"${name}"}`, created_on: `2026-01-01T00:00:0${name.length}.000Z` });
    await queries.insertRows('workspace', 'workspaces', [row('a'), row('bb'), row('ccc')]);
    // The same shape and count again (its compiled statement reused), then another count.
    await queries.insertRows('workspace', 'workspaces', [row('dd'), row('e'), row('ffff')]);
    await queries.insertRows('workspace', 'workspaces', [row('gg')]);
    await queries.insertRows('workspace', 'workspaces', []);
    const stored = await ctx.database.db
      .selectFrom('workspaces')
      .selectAll()
      .where('created_on', '<', '2026-01-02')
      .orderBy('name')
      .execute();
    assert.deepEqual(stored, ['a', 'bb', 'ccc', 'dd', 'e', 'ffff', 'gg'].map(row));
  });

  it('binds nulls and numbers', async () => {
    const queries = new CompiledQueries(ctx.database.db, 'compiled-queries-test');
    await queries.insertRows('workspace', 'workspaces', [{ name: 'w', document: '{}', created_on: '2026-01-03T00:00:00.000Z' }]);
    await queries.insertRows('group', 'user_groups', [
      { workspace: 'w', name: 'g1', collection: null, document: '{}', created_on: '2026-01-01T00:00:00.000Z' },
      { workspace: 'w', name: 'g2', collection: null, document: '{"x":1}', created_on: '2026-01-01T00:00:01.000Z' },
    ]);
    const groups = await ctx.database.db.selectFrom('user_groups').select(['name', 'collection', 'document']).orderBy('name').execute();
    assert.deepEqual(groups, [
      { name: 'g1', collection: null, document: '{}' },
      { name: 'g2', collection: null, document: '{"x":1}' },
    ]);
    await ctx.database.db
      .insertInto('users')
      .values({
        username: 'u',
        uuid: '00000000-0000-4000-8000-000000000001',
        email: 'u@example.com',
        first_name: 'U',
        last_name: 'U',
        euid: null,
        document: '{}',
        created_on: '2026-01-01T00:00:00.000Z',
      })
      .execute();
    await queries.insertRows('member', 'group_members', [
      { workspace: 'w', group_name: 'g1', username: 'u', position: 0 },
      { workspace: 'w', group_name: 'g2', username: 'u', position: 7 },
    ]);
    const members = await ctx.database.db.selectFrom('group_members').select(['group_name', 'position']).orderBy('group_name').execute();
    assert.deepEqual(
      members.map((member) => ({ ...member, position: Number(member.position) })),
      [
        { group_name: 'g1', position: 0 },
        { group_name: 'g2', position: 7 },
      ],
    );
  });

  it('reads what is committed outside a transaction, and what a transaction or a unit of work wrote inside it', async () => {
    // SQLite answers reads outside a transaction on its reader directly (readDirectly): never a
    // transaction's, nor a unit of work's, whose writes only their own connection sees.
    const named = (db: Db, name: string) =>
      new CompiledQueries(db, 'compiled-queries-reads').execute('by name', [name], (n) =>
        db.selectFrom('workspaces').select('name').where('name', '=', n),
      );
    const workspace = (name: string) => ({ name, document: '{}', created_on: '2026-01-04T00:00:00.000Z' });
    assert.deepEqual(await named(ctx.database.db, 'read-1'), []);
    await inTransaction(ctx.database.db, async (trx) => {
      await trx.insertInto('workspaces').values(workspace('read-1')).execute();
      assert.deepEqual(await named(trx, 'read-1'), [{ name: 'read-1' }]);
      assert.deepEqual(await named(ctx.database.db, 'read-1'), [], 'another flow reads only what is committed');
    });
    assert.deepEqual(await named(ctx.database.db, 'read-1'), [{ name: 'read-1' }]);
    await new UnitOfWork(ctx.database.db).run(async () => {
      await ctx.database.db.insertInto('workspaces').values(workspace('read-2')).execute();
      // The store holds the database, not a transaction: inside the unit its reads are the unit's.
      assert.deepEqual(await named(ctx.database.db, 'read-2'), [{ name: 'read-2' }]);
    });
    assert.deepEqual(await named(ctx.database.db, 'read-2'), [{ name: 'read-2' }]);
  });
});
