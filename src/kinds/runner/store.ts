import type { Kysely } from 'kysely';
import type { Tables } from '../../store/schema.js';

/** Runners (issue 7 adds their API); definition versions name them. */
export class RunnerStore {
  constructor(private readonly db: Kysely<Tables>) {}

  async implementationType(uuid: string): Promise<string | undefined> {
    const row = await this.db.selectFrom('runners').select('implementation_type').where('uuid', '=', uuid).executeTakeFirst();
    return row?.implementation_type;
  }
}
