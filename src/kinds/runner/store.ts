import type { Kysely } from 'kysely';
import type { Tables } from '../../store/schema.js';

/** Runners (issue 7 adds their API); definition versions name them. */
export class RunnerStore {
  constructor(private readonly db: Kysely<Tables>) {}

  async find(uuid: string): Promise<{ uuid: string; ownedByWorkspace: string; implementationType: string; publicKey?: string } | undefined> {
    const row = await this.db.selectFrom('runners').selectAll().where('uuid', '=', uuid).executeTakeFirst();
    if (!row) return undefined;
    const publicKey = (JSON.parse(row.document) as { spec?: { publicKey?: string } }).spec?.publicKey;
    return { uuid: row.uuid, ownedByWorkspace: row.owned_by_workspace, implementationType: row.implementation_type, ...(publicKey ? { publicKey } : {}) };
  }

  async touch(uuid: string, at: string): Promise<void> {
    await this.db.updateTable('runners').set({ last_seen: at }).where('uuid', '=', uuid).execute();
  }

  async implementationType(uuid: string): Promise<string | undefined> {
    const row = await this.db.selectFrom('runners').select('implementation_type').where('uuid', '=', uuid).executeTakeFirst();
    return row?.implementation_type;
  }
}
