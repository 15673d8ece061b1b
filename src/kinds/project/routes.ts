import { emptyPage } from '../../lib/paging.js';
import { versionOf, type Operation } from '../operation.js';
import { resourceOperations } from '../resource.js';
import type { AuthorizedProjectService } from './authorized-service.js';
import type { Project } from './model.js';
import { PROJECT_FILTERS, parseProjectFilter } from './query.js';
import { PROJECT_CODECS } from './wire/index.js';
import { PROJECTS_PATH } from './model.js';

export function projectOperations(projects: AuthorizedProjectService): Operation[] {
  return resourceOperations<Project>({
    path: PROJECTS_PATH,
    codecs: PROJECT_CODECS.codecs,
    embedded: 'meshProjects',
    filters: PROJECT_FILTERS,
    resource: 'PROJECT',
    encode: (project, call) => PROJECT_CODECS.of(versionOf(call)).encode(project, call),
    get: (call, id) => projects.get(call.ctx, id),
    list: async (call, page) => {
      const filter = parseProjectFilter(call.query);
      return filter === 'none' ? emptyPage() : projects.list(call.ctx, filter, page);
    },
    create: (call) => projects.create(call.ctx, PROJECT_CODECS.of(call.consumes?.version).decode(call.body)),
    update: (call, id) => projects.update(call.ctx, id, PROJECT_CODECS.of(call.consumes?.version).decode(call.body)),
    remove: { status: 202, run: (call, id) => projects.delete(call.ctx, id) },
  });
}
