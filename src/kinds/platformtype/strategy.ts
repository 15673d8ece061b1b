import { randomUUID } from 'node:crypto';
import type { Selectable } from 'kysely';
import { isAdminFor } from '../../auth/policy.js';
import { badRequest, conflict, insufficientPermissions } from '../../lib/errors.js';
import type { PlatformTypeTable } from '../../store/schema.js';
import { SEEN_BY_ALL, type CrudAccess } from '../crud/authorized-service.js';
import type { StoredRow } from '../crud/store.js';
import type { CrudStrategy } from '../crud/service.js';
import { parseDocument, serializeDocument } from '../document.js';
import { PLATFORM_TYPE_TITLES } from './events.js';
import { typeKey, type LifecycleState, type PlatformCategory, type PlatformType, type PlatformTypeInput } from './model.js';
import { PLATFORM_TYPE_EVENTS } from './wire/index.js';

/**
 * A platform type's rules: only CUSTOM types are made through the API (OpenAPI; the built-in ones
 * come with the service and are read-only); the category never changes; `status.lifecycleState` may
 * (de)activate; DELETE deactivates (the type takes no new platforms, existing ones keep it).
 */
export const PLATFORM_TYPE_STRATEGY: CrudStrategy<PlatformType, PlatformTypeInput> = {
  kind: 'meshPlatformType',
  table: {
    table: 'platform_types',
    key: 'name',
    toRow: (type): StoredRow<PlatformTypeTable> => ({
      name: type.name,
      type_key: typeKey(type.name),
      uuid: type.uuid,
      category: type.category,
      lifecycle_state: type.lifecycleState,
      built_in: type.builtIn ? 1 : 0,
      document: serializeDocument(type.document),
    }),
    fromRow: (row: Selectable<PlatformTypeTable>) => ({
      name: row.name,
      uuid: row.uuid,
      category: row.category as PlatformCategory,
      lifecycleState: row.lifecycle_state as LifecycleState,
      builtIn: Boolean(row.built_in),
      document: parseDocument(row.document),
    }),
  },
  events: {
    created: PLATFORM_TYPE_TITLES.platformTypeCreated,
    changed: PLATFORM_TYPE_TITLES.platformTypeChanged,
    deleted: PLATFORM_TYPE_TITLES.platformTypeDeactivated,
  },
  eventCodec: PLATFORM_TYPE_EVENTS,
  describe: (type, change) => `Platform type ${type.name} was ${change === 'deleted' ? 'deactivated' : change}`,
  validate(input, existing) {
    if (!existing) {
      if (input.category !== 'CUSTOM') throw badRequest(`spec.category: only CUSTOM platform types can be created, got ${input.category}`);
      return;
    }
    if (existing.builtIn) throw conflict(`meshPlatformType ${existing.name} is built in and cannot be changed`);
    if (input.category !== existing.category)
      throw badRequest(`spec.category: the category of a platform type cannot change (is ${existing.category})`);
  },
  prepareForCreate: (input) => ({
    name: input.name,
    uuid: randomUUID(),
    category: 'CUSTOM',
    lifecycleState: input.lifecycleState ?? 'ACTIVE',
    builtIn: false,
    createdOn: new Date().toISOString(),
    document: input.document,
  }),
  prepareForUpdate: (existing, input) => ({
    ...existing,
    lifecycleState: input.lifecycleState ?? existing.lifecycleState,
    document: input.document,
  }),
  duplicate: (type, write) =>
    write === 'create' ? `meshPlatformType ${type.name} already exists (platform type names are unique regardless of case)` : undefined,
  writeUnchanged: true,
  retire(existing) {
    if (existing.builtIn || existing.category !== 'CUSTOM')
      throw conflict(`meshPlatformType ${existing.name} is built in: only CUSTOM platform types can be deactivated`);
    return existing.lifecycleState === 'DEACTIVATED' ? undefined : { ...existing, lifecycleState: 'DEACTIVATED' };
  },
};

const REQUIRED = {
  create: ['SAVE', 'make'],
  update: ['SAVE', 'change'],
  delete: ['DELETE', 'deactivate'],
} as const;

/**
 * Platform types are read by every caller (OpenAPI: "No specific permission is required"). A type
 * belongs to no workspace and every workspace's platforms may use it, so (as for a location without
 * an owner) making or changing one needs `ADM_PLATFORMINSTANCE_SAVE` (the OpenAPI's "permission to
 * save platforms", in its admin form), deactivating one `ADM_PLATFORMINSTANCE_DELETE` (OpenAPI:
 * "admin users with delete permissions on platforms").
 */
export const PLATFORM_TYPE_ACCESS: CrudAccess<PlatformType, PlatformTypeInput> = {
  ...SEEN_BY_ALL,
  requireWrite(ctx, write) {
    const [action, verb] = REQUIRED[write.op];
    if (!isAdminFor(ctx.principal, 'PLATFORMINSTANCE', action))
      throw insufficientPermissions(`ADM_PLATFORMINSTANCE_${action} is required to ${verb} a platform type`);
  },
};
