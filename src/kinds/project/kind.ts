import { importable, metadataName } from '../importable.js';
import { type KindManifest, deprecated, example } from '../manifest.js';
import { taggedBy } from '../tags.js';
import { column } from '../manifest.js';
import { AuthorizedProjectService } from './authorized-service.js';
import { PROJECT_TITLES } from './events.js';
import { projectOperations } from './routes.js';
import { ProjectService } from './service.js';
import { PROJECT_CODECS } from './wire/index.js';
import { PROJECTS_PATH } from './model.js';

declare module '../services.js' {
  interface AuthorizedServices {
    projects: AuthorizedProjectService;
  }
  interface PlainServices {
    projects: ProjectService;
  }
}

export const projectKind: KindManifest<'projects'> = {
  name: 'projects',
  resources: [
    {
      path: PROJECTS_PATH,
      codecs: PROJECT_CODECS,
      index: ['workspaceIdentifier', 'paymentIdentifier', 'state'],
      cli: { columns: [column('PAYMENT METHOD', 'spec.paymentMethodIdentifier')] },
    },
  ],
  events: PROJECT_TITLES,
  lifecycle: [deprecated('meshProject.v1', 'v2', { endOfLife: '2025-07-01', successor: 'v2' })],
  importLifecycle: [deprecated('meshProject.v1', 'v2', { endOfLife: '2025-07-01' })],
  examples: [
    example('meshProject.v2', { metadata: { name: 'web-shop', ownedByWorkspace: 'platform-team' }, spec: { displayName: 'Web shop' } }),
  ],
  references: [
    taggedBy({ kind: 'meshProject', table: 'projects', keys: ['workspace', 'name'], section: 'spec' }),
    { to: 'workspace', kind: 'meshProjects', table: 'projects', columns: ['workspace'] },
    { to: 'paymentMethod', kind: 'meshProjects', table: 'projects', columns: ['payment_method'] },
    { to: 'paymentMethod', kind: 'meshProjects (as substitute)', table: 'projects', columns: ['substitute_payment_method'] },
  ],
  build(context) {
    const plain = new ProjectService(context.db, context.plain('workspaces'), context.recorder, context.references);
    const authorized = new AuthorizedProjectService(plain, context.authorized('paymentMethods'), context.authorized('tagDefinitions'));
    return { plain, authorized };
  },
  operations: (services) => projectOperations(services.projects),
  importable: (services) => [
    importable(PROJECT_CODECS, metadataName, async (ctx, input) => {
      const { project, created } = await services.projects.save(ctx, input);
      return { name: project.name, created };
    }),
  ],
};
