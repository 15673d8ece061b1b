import type { Selectable } from 'kysely';
import type { Page, PageRequest } from '../../lib/paging.js';
import { fetchPage } from '../../store/paged.js';
import type { PlatformTable } from '../../store/schema.js';
import type { Db } from '../../store/transaction.js';
import { parseDocument, serializeDocument } from '../document.js';
import type { Platform } from './model.js';

function toModel(row: Selectable<PlatformTable>): Platform {
  const document = parseDocument(row.document);
  const contributors = document.spec.contributingWorkspaces;
  return {
    uuid: row.uuid,
    name: row.name,
    location: row.location,
    ownedByWorkspace: row.owned_by_workspace,
    displayName: row.display_name,
    platformType: row.platform_type,
    restriction: row.restriction as Platform['restriction'],
    isPublic: Boolean(row.is_public),
    publicationState: row.publication_state as Platform['publicationState'],
    contributingWorkspaces: Array.isArray(contributors) ? (contributors as string[]) : [],
    createdOn: row.created_on,
    document,
  };
}

const toRow = (platform: Platform): PlatformTable => ({
  uuid: platform.uuid,
  name: platform.name,
  location: platform.location,
  owned_by_workspace: platform.ownedByWorkspace,
  platform_type: platform.platformType,
  is_public: platform.isPublic ? 1 : 0,
  display_name: platform.displayName,
  restriction: platform.restriction,
  publication_state: platform.publicationState,
  document: serializeDocument(platform.document),
  created_on: platform.createdOn,
});

/** The platform list's filters, combined with AND; `contributingWorkspaces`: any of them (OR). */
export interface PlatformFilter {
  name?: string;
  location?: string;
  ownedByWorkspace?: string;
  platformType?: string;
  displayName?: string;
  restriction?: string;
  publicationState?: string;
  contributingWorkspaces?: string[];
}

/** The `platforms` table. */
export class PlatformStore {
  constructor(private readonly db: Db) {}

  /** The platform and its contributor rows (call inside a transaction). */
  async insert(platform: Platform): Promise<void> {
    await this.db.insertInto('platforms').values(toRow(platform)).execute();
    await this.insertContributors(platform);
  }

  private async insertContributors(platform: Platform): Promise<void> {
    if (platform.contributingWorkspaces.length === 0) return;
    await this.db
      .insertInto('platform_contributors')
      .values(platform.contributingWorkspaces.map((workspace) => ({ platform_uuid: platform.uuid, workspace })))
      .execute();
  }

  async find(uuid: string): Promise<Platform | undefined> {
    const row = await this.db.selectFrom('platforms').selectAll().where('uuid', '=', uuid).executeTakeFirst();
    return row ? toModel(row) : undefined;
  }

  async findByIdentifier(name: string, location: string): Promise<Platform | undefined> {
    const row = await this.db
      .selectFrom('platforms')
      .selectAll()
      .where('name', '=', name)
      .where('location', '=', location)
      .executeTakeFirst();
    return row ? toModel(row) : undefined;
  }

  async list(filter: PlatformFilter, page: PageRequest): Promise<Page<Platform>> {
    let query = this.db.selectFrom('platforms');
    if (filter.name !== undefined) query = query.where('name', '=', filter.name);
    if (filter.location !== undefined) query = query.where('location', '=', filter.location);
    if (filter.ownedByWorkspace !== undefined) query = query.where('owned_by_workspace', '=', filter.ownedByWorkspace);
    if (filter.platformType !== undefined) query = query.where('platform_type', '=', filter.platformType);
    if (filter.displayName !== undefined) query = query.where('display_name', '=', filter.displayName);
    if (filter.restriction !== undefined) query = query.where('restriction', '=', filter.restriction);
    if (filter.publicationState !== undefined) query = query.where('publication_state', '=', filter.publicationState);
    const contributors = filter.contributingWorkspaces;
    if (contributors !== undefined) {
      query = query.where('uuid', 'in', (sub) =>
        sub
          .selectFrom('platform_contributors')
          .select('platform_contributors.platform_uuid')
          .where('platform_contributors.workspace', 'in', contributors),
      );
    }
    const { rows, total } = await fetchPage(query, (q) => q.selectAll().orderBy('created_on').orderBy('uuid'), page);
    return { items: rows.map(toModel), total };
  }

  /** The platform and its contributor rows (call inside a transaction). */
  async update(platform: Platform): Promise<void> {
    const { uuid, created_on: _created, ...rest } = toRow(platform);
    await this.db.updateTable('platforms').set(rest).where('uuid', '=', uuid).execute();
    await this.db.deleteFrom('platform_contributors').where('platform_uuid', '=', uuid).execute();
    await this.insertContributors(platform);
  }

  async delete(uuid: string): Promise<void> {
    await this.db.deleteFrom('platform_contributors').where('platform_uuid', '=', uuid).execute();
    await this.db.deleteFrom('platforms').where('uuid', '=', uuid).execute();
  }
}
