import { randomUUID } from 'node:crypto';
import { ADMIN_WORKSPACE } from '../workspace/model.js';
import type { RequestContext } from '../../auth/context.js';
import type { SecretBox } from '../../crypto/secret-box.js';
import { sealSensitive, secretInput } from '../../crypto/secret-values.js';
import { badRequest, conflict } from '../../lib/errors.js';
import type { PageRequest } from '../../lib/paging.js';
import type { Db } from '../../store/transaction.js';
import type { EventRecorder } from '../eventlog/recorder.js';
import type { WorkspaceService } from '../workspace/service.js';
import { INTEGRATION_TYPES, MASKS, SECRET_FIELDS, type Integration, type IntegrationInput } from './model.js';
import { IntegrationStore, type IntegrationFilter } from './store.js';
import { eventOf } from '../eventlog/titles.js';
import { INTEGRATION_EVENTS } from './wire/index.js';
import { INTEGRATION_TITLES } from './events.js';

/** Integrations without any notion of who asks (AuthorizedIntegrationService adds that). */
export class IntegrationService {
  private readonly store: IntegrationStore;

  constructor(
    db: Db,
    private readonly events: EventRecorder,
    private readonly workspaces: WorkspaceService,
    private readonly secrets: SecretBox,
  ) {
    this.store = new IntegrationStore(db);
  }

  find(uuid: string) {
    return this.store.find(uuid.toLowerCase());
  }

  list(filter: IntegrationFilter & { scope?: string }, page: PageRequest) {
    return this.store.list(filter, page);
  }

  /**
   * The document with its secrets sealed; the mask (`<hidden>`) or the stored secret's `{hash}` keeps
   * the secret stored at the same place. A secret sent in the secret form makes them read as `{hash}`.
   */
  private sealed(input: IntegrationInput, previous: Integration | undefined): IntegrationInput {
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
        own[field] = sealSensitive(own[field], before?.[field], this.secrets, where);
      }
    }
    const { secretsAs: _previousForm, ...document } = input.document;
    return {
      ...input,
      document: {
        ...document,
        ...(asHash ? { secretsAs: 'hash' as const } : {}),
        spec: { ...document.spec, config: { ...config, [type]: own } },
      },
    };
  }

  async create(ctx: RequestContext, input: IntegrationInput): Promise<Integration> {
    // Entra ID signs people in to the whole service: the partner's (admin) workspace owns it, as in the original.
    if (input.configType === 'entraid' && input.ownedByWorkspace !== ADMIN_WORKSPACE)
      throw badRequest(`metadata.ownedByWorkspace: an Entra ID integration belongs to the admin workspace "${ADMIN_WORKSPACE}"`);
    await this.workspaces.requireExists(input.ownedByWorkspace, 'metadata.ownedByWorkspace');
    const sealed = this.sealed(input, undefined);
    const integration: Integration = {
      uuid: randomUUID(),
      ownedByWorkspace: input.ownedByWorkspace,
      displayName: input.displayName,
      type: INTEGRATION_TYPES[input.configType],
      builtIn: false,
      createdOn: new Date().toISOString(),
      document: withoutUuid(sealed.document),
    };
    await this.events.change(ctx, async (trx, events) => {
      await new IntegrationStore(trx).insert(integration);
      events.push(
        eventOf(INTEGRATION_TITLES.integrationCreated, {
          codec: INTEGRATION_EVENTS,
          id: integration.uuid,
          description: `Integration ${integration.displayName} was created`,
          workspace: integration.ownedByWorkspace,
          object: integration,
        }),
      );
    });
    return integration;
  }

  /** The type and the owning workspace never change. */
  async update(ctx: RequestContext, existing: Integration, input: IntegrationInput): Promise<Integration> {
    if (INTEGRATION_TYPES[input.configType] !== existing.type)
      throw badRequest(`spec.config.type: an integration's type cannot change (is ${existing.type})`);
    if (input.ownedByWorkspace !== existing.ownedByWorkspace)
      throw badRequest(
        `metadata.ownedByWorkspace: the integration belongs to meshWorkspace "${existing.ownedByWorkspace}" and cannot move to another`,
      );
    const sealed = this.sealed(input, existing);
    const integration: Integration = { ...existing, displayName: input.displayName, document: withoutUuid(sealed.document) };
    await this.events.change(ctx, async (trx, events) => {
      await new IntegrationStore(trx).update(integration);
      events.push(
        eventOf(INTEGRATION_TITLES.integrationChanged, {
          codec: INTEGRATION_EVENTS,
          id: integration.uuid,
          description: `Integration ${integration.displayName} was changed`,
          workspace: integration.ownedByWorkspace,
          object: integration,
          previous: existing,
        }),
      );
    });
    return integration;
  }

  /** 409 while a definition version names it. */
  async delete(ctx: RequestContext, existing: Integration): Promise<void> {
    await this.events.change(ctx, async (trx, events) => {
      const store = new IntegrationStore(trx);
      const users = await store.usedBy(existing.uuid);
      if (users > 0) throw conflict(`meshIntegration ${existing.uuid} is still used by ${users} meshBuildingBlockDefinitionVersions`);
      await store.delete(existing.uuid);
      events.push(
        eventOf(INTEGRATION_TITLES.integrationDeleted, {
          codec: INTEGRATION_EVENTS,
          id: existing.uuid,
          description: `Integration ${existing.displayName} was deleted`,
          workspace: existing.ownedByWorkspace,
          object: existing,
        }),
      );
    });
  }
}

function withoutUuid(document: IntegrationInput['document']): IntegrationInput['document'] {
  const { uuid: _sent, ...metadata } = document.metadata;
  return { ...document, metadata };
}
