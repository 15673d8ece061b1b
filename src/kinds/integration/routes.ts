import type { Operation } from '../operation.js';
import { crudOperations } from '../crud/routes.js';
import type { AuthorizedIntegrationService } from './authorized-service.js';
import { INTEGRATIONS_PATH } from './model.js';
import { INTEGRATION_FILTERS, parseIntegrationFilter } from './query.js';
import { INTEGRATION_CODECS } from './wire/index.js';

export function integrationOperations(integrations: AuthorizedIntegrationService): Operation[] {
  return crudOperations(integrations, INTEGRATION_CODECS, {
    path: INTEGRATIONS_PATH,
    embedded: 'meshIntegrations',
    filters: INTEGRATION_FILTERS,
    filter: (query) => {
      const { displayName, ownedByWorkspace, type } = parseIntegrationFilter(query);
      return { display_name: displayName, owned_by_workspace: ownedByWorkspace, integration_type: type };
    },
    resource: 'INTEGRATION',
    put: 'update',
  });
}
