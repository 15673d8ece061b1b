import { importable, metadataName } from '../importable.js';
import { deprecated, example, type KindManifest } from '../manifest.js';
import { taggedBy } from '../tags.js';
import { AuthorizedWorkspaceService } from './authorized-service.js';
import { WORKSPACE_TITLES } from './events.js';
import { workspaceOperations } from './routes.js';
import { WorkspaceService } from './service.js';
import { WORKSPACE_CODECS } from './wire/index.js';
import { WORKSPACES_PATH } from './model.js';

declare module '../services.js' {
  interface AuthorizedServices {
    workspaces: AuthorizedWorkspaceService;
  }
  interface PlainServices {
    workspaces: WorkspaceService;
  }
}

export const workspaceKind: KindManifest<'workspaces'> = {
  name: 'workspaces',
  resources: [{ path: WORKSPACES_PATH, codecs: WORKSPACE_CODECS, index: [], cli: { aliases: ['ws'] } }],
  events: WORKSPACE_TITLES,
  lifecycle: [deprecated('meshWorkspace.v1', 'v2', { successor: 'v2' })],
  importLifecycle: [deprecated('meshWorkspace.v1', 'v2')],
  examples: [
    example('meshWorkspace.v2', {
      metadata: { name: 'platform-team', tags: { environment: ['dev'] } },
      spec: { displayName: 'Platform team' },
    }),
  ],
  references: [taggedBy({ kind: 'meshWorkspace', table: 'workspaces', keys: ['name'], section: 'metadata' })],
  build(context) {
    const plain = new WorkspaceService(context.db, context.recorder, context.references);
    return { plain, authorized: new AuthorizedWorkspaceService(plain, context.authorized('tagDefinitions')) };
  },
  operations: (services) => workspaceOperations(services.workspaces),
  importable: (services) => [
    importable(WORKSPACE_CODECS, metadataName, async (ctx, input) => {
      const { workspace, created } = await services.workspaces.save(ctx, input);
      return { name: workspace.name, created };
    }),
  ],
};
