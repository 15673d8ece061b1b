import type { RequestContext } from '../../auth/context.js';
import { canonicalUuid } from '../../lib/validation.js';
import { AuthorizedCrudService } from '../crud/authorized-service.js';
import type { CrudService } from '../crud/service.js';
import type { AuthorizedRunnerService } from '../runner/authorized-service.js';
import type { Integration, IntegrationInput } from './model.js';
import { integrationAccess } from './strategy.js';

/** Integrations as callers reach them (`integrationAccess`), and as definition versions name them. */
export class AuthorizedIntegrationService extends AuthorizedCrudService<Integration, IntegrationInput> {
  constructor(inner: CrudService<Integration, IntegrationInput>, runners: AuthorizedRunnerService) {
    super(
      inner,
      integrationAccess((ctx, uuid, workspace, field) => runners.resolveFor(ctx, uuid, workspace, field)),
      {
        kind: 'meshIntegration',
        canonicalId: canonicalUuid,
      },
    );
  }

  /**
   * A definition version of `workspace` names an integration (`field`): one the caller sees that
   * belongs to that workspace (or is built in); 422 otherwise.
   */
  async resolveFor(ctx: RequestContext, uuid: string, workspace: string, field: string): Promise<Integration> {
    const integration = await this.resolve(ctx, uuid, field);
    if (!integration.builtIn && integration.ownedByWorkspace !== workspace) throw this.doesNotExist(uuid, field);
    return integration;
  }
}
