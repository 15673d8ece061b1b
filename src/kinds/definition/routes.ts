import { badRequest } from '../../lib/errors.js';
import { filterValue } from '../../lib/query.js';
import { Type } from '@sinclair/typebox';
import { answersOf, ok, versionOf, type Call, type Operation } from '../operation.js';
import { DEFINITION_PAGE_MAX, MAX_STRING } from '../../lib/limits.js';
import { resourceOperations } from '../resource.js';
import type { AuthorizedDefinitionService, VersionAnswer } from './authorized-service.js';
import type { Definition } from './model.js';
import { DEFINITION_FILTERS, parseDefinitionQuery, parseVersionQuery, VERSION_FILTERS } from './query.js';
import { DEFINITION_CODECS, VERSION_CODECS } from './wire/index.js';
import { offeredVersionV1Preview } from './wire/offered-version-v1-preview.js';
import { DEFINITIONS_PATH, DEFINITION_VERSIONS_PATH } from './model.js';

const VERSION_ONE = `${DEFINITION_VERSIONS_PATH}/:id`;

/** GET of one version answers the owner's form or, to the workspaces it is offered to, the offered one. */
function documentOfferedRead(operation: Operation): Operation {
  if (operation.method !== 'GET' || operation.path !== VERSION_ONE) return operation;
  const body = answersOf(VERSION_CODECS.codecs).map((answer) => ({
    ...answer,
    schema: Type.Union([answer.schema, offeredVersionV1Preview.schema]),
  }));
  return {
    ...operation,
    doc: {
      ...operation.doc,
      responses: {
        200: { description: "the version: whole for its definition's workspace, as offered (for ordering) to every other", body },
      },
    },
  };
}

export function definitionOperations(definitions: AuthorizedDefinitionService): Operation[] {
  /** `POST …/{uuid}/approve` and `…/reject[?reason=…]`: an admin's publication review (no body). */
  const review = (decision: 'APPROVED' | 'REJECTED', action: string): Operation => ({
    method: 'POST',
    path: `${DEFINITION_VERSIONS_PATH}/:id/${action}`,
    media: { produces: VERSION_CODECS.media },
    access: { code: 'ADM_REVIEW_PUBLICATION' },
    doc: {
      summary: `${decision === 'APPROVED' ? 'Approve' : 'Reject'} a released definition version (publication review)`,
      ...(decision === 'REJECTED'
        ? {
            query: Type.Object({
              reason: Type.Optional(Type.String({ maxLength: MAX_STRING, description: 'why it is rejected (shown to the owner)' })),
            }),
          }
        : {}),
      responses: { 200: { description: 'the reviewed version', body: answersOf(VERSION_CODECS.codecs) } },
    },
    handle: async (call: Call) => {
      const reason = filterValue(call.query, 'reason');
      if (reason !== undefined && reason.length > MAX_STRING) throw badRequest(`reason: at most ${MAX_STRING} characters`);
      const version = await definitions.reviewVersion(call.ctx, call.params.id!, decision, reason);
      return ok(VERSION_CODECS.of(versionOf(call)).encode(version, call));
    },
  });
  return [
    ...resourceOperations<Definition>({
      path: DEFINITIONS_PATH,
      codecs: DEFINITION_CODECS.codecs,
      embedded: 'meshBuildingBlockDefinitions',
      filters: DEFINITION_FILTERS,
      resource: 'BUILDINGBLOCKDEFINITION',
      maxPageSize: DEFINITION_PAGE_MAX,
      encode: (definition, call) => DEFINITION_CODECS.of(versionOf(call)).encode(definition, call),
      get: (call, uuid) => definitions.get(call.ctx, uuid),
      list: (call, page) => definitions.list(call.ctx, parseDefinitionQuery(call.query), page),
      create: (call) => definitions.create(call.ctx, DEFINITION_CODECS.of(call.consumes?.version).decode(call.body).input),
      update: (call, uuid) => {
        const { input, uuid: sentUuid } = DEFINITION_CODECS.of(call.consumes?.version).decode(call.body);
        return definitions.update(call.ctx, uuid, input, sentUuid);
      },
      remove: { status: 202, run: (call, uuid) => definitions.delete(call.ctx, uuid) },
    }),
    ...resourceOperations<VersionAnswer>({
      path: DEFINITION_VERSIONS_PATH,
      codecs: VERSION_CODECS.codecs,
      embedded: 'meshBuildingBlockDefinitionVersions',
      filters: VERSION_FILTERS,
      resource: 'BUILDINGBLOCKDEFINITION',
      encode: (version, call) =>
        'offered' in version ? offeredVersionV1Preview.encode(version, call) : VERSION_CODECS.of(versionOf(call)).encode(version, call),
      get: (call, uuid) => definitions.readVersion(call.ctx, uuid),
      list: (call, page) => definitions.listVersions(call.ctx, parseVersionQuery(call.query).definitionUuid, page),
      create: (call) => {
        const { definitionUuid, spec } = VERSION_CODECS.of(call.consumes?.version).decode(call.body);
        return definitions.createVersion(call.ctx, definitionUuid, spec);
      },
      update: (call, uuid) => {
        const { definitionUuid, spec } = VERSION_CODECS.of(call.consumes?.version).decode(call.body);
        return definitions.updateVersion(call.ctx, uuid, definitionUuid, spec);
      },
    }).map(documentOfferedRead),
    review('APPROVED', 'approve'),
    review('REJECTED', 'reject'),
  ];
}
