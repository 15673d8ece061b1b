import type { Selectable } from 'kysely';
import { sql } from 'kysely';
import { requireAllowed } from '../../auth/policy.js';
import { conflict } from '../../lib/errors.js';
import type { ProjectRoleTable } from '../../store/schema.js';
import { actionOf, SEEN_BY_ALL, type CrudAccess } from '../crud/authorized-service.js';
import type { CrudStrategy } from '../crud/service.js';
import type { CrudStore, StoredRow } from '../crud/store.js';
import { parseDocument, serializeDocument } from '../document.js';
import { PROJECT_ROLE_TITLES } from './events.js';
import type { ProjectRole, ProjectRoleInput } from './model.js';
import { PROJECT_ROLE_EVENTS } from './wire/index.js';

/** The role a binding's `roleRef.name` names: by `spec.name` ("Project Admin"), else by identifier (`project-admin`). */
export async function findByRoleName(roles: Pick<CrudStore<ProjectRole>, 'select'>, roleName: string): Promise<ProjectRole | undefined> {
  const found = await roles.select({ named: sql<boolean>`(display_name = ${roleName} or name = ${roleName})` }, []);
  return found.find((role) => role.displayName === roleName) ?? found[0];
}

const taken = (role: ProjectRole) => `spec.name: "${role.displayName}" is the name of another meshProjectRole`;

/** A project role's rules: its `spec.name` is unique too (409); deleted only while no binding uses it. */
export const PROJECT_ROLE_STRATEGY: CrudStrategy<ProjectRole, ProjectRoleInput> = {
  kind: 'meshProjectRole',
  reference: 'projectRole',
  table: {
    table: 'project_roles',
    key: 'name',
    toRow: (role): StoredRow<ProjectRoleTable> => ({
      name: role.name,
      display_name: role.displayName,
      document: serializeDocument(role.document),
    }),
    fromRow: (row: Selectable<ProjectRoleTable>) => ({
      name: row.name,
      displayName: row.display_name,
      document: parseDocument(row.document),
    }),
  },
  events: {
    created: PROJECT_ROLE_TITLES.projectRoleCreated,
    changed: PROJECT_ROLE_TITLES.projectRoleChanged,
    deleted: PROJECT_ROLE_TITLES.projectRoleDeleted,
  },
  eventCodec: PROJECT_ROLE_EVENTS,
  prepareForCreate: (input) => ({ ...input, createdOn: new Date().toISOString() }),
  prepareForUpdate: (existing, input) => ({ ...input, createdOn: existing.createdOn }),
  async beforeInsert(store, role) {
    if (await store.exists(role.name)) throw conflict(`meshProjectRole ${role.name} already exists`);
    if ((await findByRoleName(store, role.displayName))?.displayName === role.displayName) throw conflict(taken(role));
  },
  async beforeUpdate(store, role) {
    const holder = await findByRoleName(store, role.displayName);
    if (holder && holder.name !== role.name && holder.displayName === role.displayName) throw conflict(taken(role));
  },
  duplicate: (role, write) =>
    write === 'create' ? `meshProjectRole ${role.name} already exists (or its spec.name is taken)` : taken(role),
  stillHeld: (name, holding) => `meshProjectRole ${name} is still used by ${holding}; delete them first`,
  heldByForeignKey: 'project bindings',
};

/** Project roles: read by every caller (list and GET are free); written with `ADM_PROJECTROLE_SAVE`/`_DELETE`. */
export const PROJECT_ROLE_ACCESS: CrudAccess<ProjectRole, ProjectRoleInput> = {
  ...SEEN_BY_ALL,
  requireWrite: (ctx, write) => requireAllowed(ctx.principal, 'PROJECTROLE', actionOf(write)),
};
