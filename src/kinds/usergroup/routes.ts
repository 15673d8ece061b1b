import { versionOf, type Operation } from '../operation.js';
import { resourceOperations } from '../resource.js';
import type { AuthorizedUserGroupService } from './authorized-service.js';
import type { UserGroup } from './model.js';
import { USER_GROUP_FILTERS, parseUserGroupFilter } from './query.js';
import { USER_GROUP_CODECS } from './wire/index.js';
import { USER_GROUPS_PATH } from './model.js';

/** meshWorkspaceUserGroup v1 over REST: read only (list, GET `<workspace>.<group>`); written by the import. */
export function userGroupOperations(groups: AuthorizedUserGroupService): Operation[] {
  return resourceOperations<UserGroup>({
    path: USER_GROUPS_PATH,
    codecs: USER_GROUP_CODECS.codecs,
    embedded: 'meshWorkspaceUserGroups',
    filters: USER_GROUP_FILTERS,
    resource: 'WORKSPACEUSERGROUP',
    encode: (group, call) => USER_GROUP_CODECS.of(versionOf(call)).encode(group, call),
    get: (call, id) => groups.get(call.ctx, id),
    list: (call, page) => groups.list(call.ctx, parseUserGroupFilter(call.query), page),
  });
}
