import type { Selectable } from 'kysely';
import type { Page, PageRequest } from '../../lib/paging.js';
import { fetchPage } from '../../store/paged.js';
import type { ServiceInstanceTable } from '../../store/schema.js';
import type { Db } from '../../store/transaction.js';
import { parseDocument, serializeDocument } from '../document.js';
import type { ServiceInstance } from './model.js';

const toModel = (row: Selectable<ServiceInstanceTable>): ServiceInstance => ({
  instanceId: row.instance_id,
  workspace: row.workspace,
  project: row.project,
  marketplace: row.marketplace,
  serviceId: row.service_id,
  planId: row.plan_id,
  creator: row.creator,
  ...(row.marked_for_deletion_on !== null ? { markedForDeletionOn: row.marked_for_deletion_on } : {}),
  ...(row.gone_on !== null ? { goneOn: row.gone_on } : {}),
  createdOn: row.created_on,
  document: parseDocument(row.document),
});

const toRow = (instance: ServiceInstance) => ({
  instance_id: instance.instanceId,
  workspace: instance.workspace,
  project: instance.project,
  marketplace: instance.marketplace,
  service_id: instance.serviceId,
  plan_id: instance.planId,
  creator: instance.creator,
  document: serializeDocument(instance.document),
  marked_for_deletion_on: instance.markedForDeletionOn ?? null,
  gone_on: instance.goneOn ?? null,
  created_on: instance.createdOn,
});

/** The list's filters (exact, AND). */
export interface ServiceInstanceFilter {
  workspace?: string;
  project?: string;
  marketplace?: string;
  serviceId?: string;
  planId?: string;
}

/** The `service_instances` table. Rows past their `gone_on` are never read: they are gone. */
export class ServiceInstanceStore {
  constructor(private readonly db: Db) {}

  private present(now: string) {
    return this.db.selectFrom('service_instances').where((eb) => eb.or([eb('gone_on', 'is', null), eb('gone_on', '>', now)]));
  }

  async find(instanceId: string, now: string): Promise<ServiceInstance | undefined> {
    const row = await this.present(now).selectAll().where('instance_id', '=', instanceId).executeTakeFirst();
    return row ? toModel(row) : undefined;
  }

  async list(filter: ServiceInstanceFilter, page: PageRequest, now: string): Promise<Page<ServiceInstance>> {
    let query = this.present(now);
    if (filter.workspace !== undefined) query = query.where('workspace', '=', filter.workspace);
    if (filter.project !== undefined) query = query.where('project', '=', filter.project);
    if (filter.marketplace !== undefined) query = query.where('marketplace', '=', filter.marketplace);
    if (filter.serviceId !== undefined) query = query.where('service_id', '=', filter.serviceId);
    if (filter.planId !== undefined) query = query.where('plan_id', '=', filter.planId);
    const { rows, total } = await fetchPage(query, (q) => q.selectAll().orderBy('created_on').orderBy('instance_id'), page);
    return { items: rows.map(toModel), total };
  }

  /** Removes the row of a gone instance of this id, so the id can be used again. */
  async forgetGone(instanceId: string, now: string): Promise<void> {
    await this.db.deleteFrom('service_instances').where('instance_id', '=', instanceId).where('gone_on', '<=', now).execute();
  }

  async insert(instance: ServiceInstance): Promise<void> {
    await this.db.insertInto('service_instances').values(toRow(instance)).execute();
  }

  /** Replaces a live instance; false when it was marked for deletion meanwhile (nothing changed). */
  async update(instance: ServiceInstance): Promise<boolean> {
    const { instance_id: _id, created_on: _created, marked_for_deletion_on: _marked, gone_on: _gone, ...row } = toRow(instance);
    const result = await this.db
      .updateTable('service_instances')
      .set(row)
      .where('instance_id', '=', instance.instanceId)
      .where('marked_for_deletion_on', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Marks a live instance deleted; false when it already was (a concurrent DELETE). */
  async markDeleted(instanceId: string, markedOn: string, goneOn: string): Promise<boolean> {
    const result = await this.db
      .updateTable('service_instances')
      .set({ marked_for_deletion_on: markedOn, gone_on: goneOn })
      .where('instance_id', '=', instanceId)
      .where('marked_for_deletion_on', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** The project's deleting (and gone) instances go with it; live ones keep it (the project reference in kind.ts). */
  async removeDeletingOf(workspace: string, project: string): Promise<void> {
    await this.db
      .deleteFrom('service_instances')
      .where('workspace', '=', workspace)
      .where('project', '=', project)
      .where('marked_for_deletion_on', 'is not', null)
      .execute();
  }
}
