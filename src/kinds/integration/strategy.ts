import { randomUUID } from 'node:crypto';
import { sql, type Selectable } from 'kysely';
import type { RequestContext } from '../../auth/context.js';
import { listScope, requireAllowed, seesWorkspace } from '../../auth/policy.js';
import type { SecretBox } from '../../crypto/secret-box.js';
import { sealSensitive, secretInput } from '../../crypto/secret-values.js';
import { badRequest, conflict } from '../../lib/errors.js';
import type { IntegrationTable } from '../../store/schema.js';
import type { Db } from '../../store/transaction.js';
import type { CrudAccess } from '../crud/authorized-service.js';
import type { StoredRow } from '../crud/store.js';
import type { CrudStrategy } from '../crud/service.js';
import { parseDocument, serializeDocument } from '../document.js';
import { ADMIN_WORKSPACE } from '../workspace/model.js';
import { INTEGRATION_TITLES } from './events.js';
import { INTEGRATION_TYPES, MASKS, SECRET_FIELDS, type Integration, type IntegrationInput, type IntegrationType } from './model.js';
import { INTEGRATION_EVENTS } from './wire/index.js';

/** What an integration's rules ask of other kinds and of the service. */
export interface IntegrationNeeds {
  /** 422 naming the field unless the workspace exists. */
  requireWorkspace(name: string, field: string): Promise<void>;
  /** Seals the secrets at rest. */
  secrets: SecretBox;
}

/**
 * The document with its secrets sealed; the mask (`<hidden>`) or the stored secret's `{hash}` keeps
 * the secret stored at the same place. A secret sent in the secret form makes them read as `{hash}`.
 * Without `metadata.uuid` (the server makes it).
 */
function sealed(secrets: SecretBox, input: IntegrationInput, previous: Integration | undefined): Integration['document'] {
  const type = input.configType;
  const config = input.document.spec.config as Record<string, unknown>;
  const own = { ...(config[type] as Record<string, unknown>) };
  const before = (previous?.document.spec.config as Record<string, Record<string, unknown>> | undefined)?.[type];
  let asHash = false;
  for (const field of SECRET_FIELDS[type]) {
    const where = `spec.config.${type}.${field}`;
    if (own[field] === undefined) continue;
    if (typeof own[field] === 'string' && MASKS.includes(own[field])) {
      if (before?.[field] === undefined)
        throw badRequest(`${where}: "${own[field]}" keeps a stored secret, and there is none; send the secret`);
      own[field] = before[field];
    } else {
      asHash ||= secretInput(own[field]) !== undefined;
      own[field] = sealSensitive(own[field], before?.[field], secrets, where);
    }
  }
  const { secretsAs: _previousForm, ...document } = input.document;
  const { uuid: _sent, ...metadata } = document.metadata;
  return {
    ...document,
    metadata,
    ...(asHash ? { secretsAs: 'hash' as const } : {}),
    spec: { ...document.spec, config: { ...config, [type]: own } },
  };
}

/**
 * Definition versions naming the integration (`implementation.<type>.integrationRef.uuid`): they keep
 * it from being deleted. Found by a text search of the stored versions, then checked exactly.
 */
async function usedBy(db: Db, uuid: string): Promise<number> {
  const { rows } = await sql<{ document: string }>`select document from definition_versions where document like ${`%${uuid}%`}`.execute(db);
  return rows.filter((row) => {
    const implementation =
      (JSON.parse(row.document) as { implementation?: Record<string, unknown> }).implementation ??
      (JSON.parse(row.document) as { spec?: { implementation?: Record<string, unknown> } }).spec?.implementation;
    return Object.values(implementation ?? {}).some(
      (value) => (value as { integrationRef?: { uuid?: unknown } } | null)?.integrationRef?.uuid === uuid,
    );
  }).length;
}

/**
 * An integration's rules: its workspace must exist (an Entra ID integration belongs to the admin
 * workspace); its type and its workspace never change; its secrets are sealed; deleted only while
 * no definition version names it.
 */
export const integrationStrategy = (needs: IntegrationNeeds): CrudStrategy<Integration, IntegrationInput> => ({
  kind: 'meshIntegration',
  table: {
    table: 'integrations',
    key: 'uuid',
    toRow: (integration): StoredRow<IntegrationTable> => ({
      uuid: integration.uuid,
      owned_by_workspace: integration.ownedByWorkspace,
      display_name: integration.displayName,
      integration_type: integration.type,
      built_in: integration.builtIn ? 1 : 0,
      document: serializeDocument(integration.document),
    }),
    fromRow: (row: Selectable<IntegrationTable>) => ({
      uuid: row.uuid,
      ownedByWorkspace: row.owned_by_workspace,
      displayName: row.display_name,
      type: row.integration_type as IntegrationType,
      builtIn: Boolean(row.built_in),
      document: parseDocument(row.document),
    }),
  },
  events: {
    created: INTEGRATION_TITLES.integrationCreated,
    changed: INTEGRATION_TITLES.integrationChanged,
    deleted: INTEGRATION_TITLES.integrationDeleted,
  },
  eventCodec: INTEGRATION_EVENTS,
  workspaceOf: (integration) => integration.ownedByWorkspace,
  describe: (integration, change) => `Integration ${integration.displayName} was ${change}`,
  async validate(input, existing) {
    if (!existing) {
      // Entra ID signs people in to the whole service: the partner's (admin) workspace owns it, as in the original.
      if (input.configType === 'entraid' && input.ownedByWorkspace !== ADMIN_WORKSPACE)
        throw badRequest(`metadata.ownedByWorkspace: an Entra ID integration belongs to the admin workspace "${ADMIN_WORKSPACE}"`);
      return needs.requireWorkspace(input.ownedByWorkspace, 'metadata.ownedByWorkspace');
    }
    if (INTEGRATION_TYPES[input.configType] !== existing.type)
      throw badRequest(`spec.config.type: an integration's type cannot change (is ${existing.type})`);
    if (input.ownedByWorkspace !== existing.ownedByWorkspace)
      throw badRequest(
        `metadata.ownedByWorkspace: the integration belongs to meshWorkspace "${existing.ownedByWorkspace}" and cannot move to another`,
      );
  },
  prepareForCreate: (input) => ({
    uuid: randomUUID(),
    ownedByWorkspace: input.ownedByWorkspace,
    displayName: input.displayName,
    type: INTEGRATION_TYPES[input.configType],
    builtIn: false,
    createdOn: new Date().toISOString(),
    document: sealed(needs.secrets, input, undefined),
  }),
  prepareForUpdate: (existing, input) => ({
    ...existing,
    displayName: input.displayName,
    document: sealed(needs.secrets, input, existing),
  }),
  writeUnchanged: true,
  async beforeDelete(trx, integration) {
    const users = await usedBy(trx, integration.uuid);
    if (users > 0) throw conflict(`meshIntegration ${integration.uuid} is still used by ${users} meshBuildingBlockDefinitionVersions`);
  },
});

/**
 * Integrations are workspace-scoped unless admin (OpenAPI): `INTEGRATION_*` in the owning workspace,
 * `ADM_INTEGRATION_*` everywhere; the built-in ones (replicator, metering) are read by every caller
 * who may list integrations and changed by nobody (409). A config's runner must be one the caller
 * sees and that serves the integration's workspace (422 otherwise).
 */
export function integrationAccess(
  resolveRunner: (ctx: RequestContext, uuid: string, workspace: string, field: string) => Promise<unknown>,
): CrudAccess<Integration, IntegrationInput> {
  const readOnly = (integration: Integration) => conflict(`meshIntegration ${integration.uuid} is built in and read-only`);
  return {
    sees: (ctx, integration) => integration.builtIn || seesWorkspace(ctx.principal, 'INTEGRATION', integration.ownedByWorkspace),
    listBound(ctx) {
      const scope = listScope(ctx.principal, 'INTEGRATION');
      return scope === 'all' ? {} : { scope: sql<boolean>`(owned_by_workspace = ${scope.workspace} or built_in = 1)` };
    },
    async requireWrite(ctx, write) {
      if (write.op === 'delete') {
        if (write.existing.builtIn) throw readOnly(write.existing);
        return requireAllowed(ctx.principal, 'INTEGRATION', 'DELETE', write.existing.ownedByWorkspace);
      }
      const { input } = write;
      let workspace = input.ownedByWorkspace;
      if (write.op === 'update') {
        const { existing } = write;
        if (input.uuid !== undefined && input.uuid.toLowerCase() !== existing.uuid)
          throw badRequest(`metadata.uuid: "${input.uuid}" does not match the integration ${write.id} of the path`);
        if (existing.builtIn) throw readOnly(existing);
        workspace = existing.ownedByWorkspace;
      }
      requireAllowed(ctx.principal, 'INTEGRATION', 'SAVE', workspace);
      if (input.runnerUuid !== undefined)
        await resolveRunner(ctx, input.runnerUuid, workspace, `spec.config.${input.configType}.runnerRef.uuid`);
    },
  };
}
