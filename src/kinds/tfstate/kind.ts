import type { KindManifest } from '../manifest.js';
import { AuthorizedTerraformStateService } from './authorized-service.js';
import { terraformStateOperations } from './routes.js';
import { TerraformStateService } from './service.js';

declare module '../services.js' {
  interface AuthorizedServices {
    /** Building blocks' Terraform states (the state backend of the original's Terraform runner). */
    terraformStates: AuthorizedTerraformStateService;
  }
}

export const terraformStateKind: KindManifest<'terraformStates'> = {
  name: 'terraformStates',
  resources: [],
  build: (context) => ({
    authorized: new AuthorizedTerraformStateService(
      new TerraformStateService(context.db, context.secrets),
      context.plain('blocks'),
      context.plain('runs'),
    ),
  }),
  operations: (services) => terraformStateOperations(services.terraformStates),
};
