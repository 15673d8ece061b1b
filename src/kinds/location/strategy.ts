import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { isAdminFor, requireAllowed } from '../../auth/policy.js';
import { insufficientPermissions } from '../../lib/errors.js';
import { parseDocument, serializeDocument } from '../document.js';
import { eachObjectWritten, SEEN_BY_ALL, type CrudAccess } from '../crud/authorized-service.js';
import type { CrudStrategy } from '../crud/service.js';
import { LOCATION_TITLES } from './events.js';
import type { Location, LocationInput } from './model.js';
import { LOCATION_EVENTS } from './wire/index.js';

/** Whether a public platform stands at the location: computed in the same query as the row. */
const isPublic =
  sql<number>`(case when exists (select 1 from platforms p where p.location = locations.name and p.is_public = 1) then 1 else 0 end)`.as(
    'is_public',
  );

/**
 * A location's rules: identified by its name, its uuid informational (COMPAT §7); its owning workspace,
 * when it names one, must exist.
 */
export const locationStrategy = (
  requireWorkspace: (name: string, field: string) => Promise<void>,
): CrudStrategy<Location, LocationInput> => ({
  kind: 'meshLocation',
  reference: 'location',
  missing: 'LOCATION',
  table: {
    table: 'locations',
    key: 'name',
    computed: [isPublic],
    toRow: (location) => ({
      name: location.name,
      uuid: location.uuid,
      display_name: location.displayName,
      owned_by_workspace: location.ownedByWorkspace ?? null,
      document: serializeDocument(location.document),
    }),
    fromRow: (row) => ({
      name: String(row.name),
      uuid: String(row.uuid),
      displayName: String(row.display_name),
      ...(row.owned_by_workspace !== null ? { ownedByWorkspace: String(row.owned_by_workspace) } : {}),
      isPublic: Boolean(row.is_public),
      document: parseDocument(String(row.document)),
    }),
  },
  events: { created: LOCATION_TITLES.locationCreated, changed: LOCATION_TITLES.locationChanged, deleted: LOCATION_TITLES.locationDeleted },
  eventCodec: LOCATION_EVENTS,
  workspaceOf: (location) => location.ownedByWorkspace,
  prepareForCreate: (input) => ({ ...input, uuid: randomUUID(), createdOn: new Date().toISOString(), isPublic: false }),
  prepareForUpdate(existing, input) {
    const location: Location = { ...existing, ...input };
    if (input.ownedByWorkspace === undefined) delete location.ownedByWorkspace;
    return location;
  },
  async validate(input, existing) {
    if (input.ownedByWorkspace && input.ownedByWorkspace !== existing?.ownedByWorkspace)
      await requireWorkspace(input.ownedByWorkspace, 'metadata.ownedByWorkspace');
  },
});

/**
 * Locations are seen by every caller (COMPAT §5: "reading locations is free"). Writing one needs
 * `PLATFORMINSTANCE_SAVE` in the workspace that owns it, or admin rights for unowned ones.
 */
export const LOCATION_ACCESS: CrudAccess<Location, LocationInput> = {
  ...SEEN_BY_ALL,
  requireWrite: eachObjectWritten((ctx, { ownedByWorkspace: owner }, action) => {
    if (owner !== undefined) return requireAllowed(ctx.principal, 'PLATFORMINSTANCE', action, owner);
    if (!isAdminFor(ctx.principal, 'PLATFORMINSTANCE', action))
      throw insufficientPermissions(`ADM_PLATFORMINSTANCE_${action} is required for a location without an owning workspace`);
  }),
};
