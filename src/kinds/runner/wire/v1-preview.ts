import { Type } from '@sinclair/typebox';
import { runnerPublicKey } from '../../../crypto/runner-encryption.js';
import { badRequest } from '../../../lib/errors.js';
import { TEXT_LIMITS } from '../../../lib/limits.js';
import { StringEnum } from '../../../lib/validation.js';
import { DateTime, Echoed, Identifier, KindOf, NonEmptyShortString, Nullable, Uuid } from '../../../lib/wire-schemas.js';
import type { EncodeView } from '../../codec.js';
import { sentObject } from '../../document.js';
import { objectVersion, selfLink, sentUuid } from '../../wire-helpers.js';
import { RUNNERS_PATH, RUNNER_IMPLEMENTATION_TYPES, RUNNER_RESTRICTIONS, type Runner, type RunnerInput } from '../model.js';

const Body = Type.Object({
  kind: KindOf('meshBuildingBlockRunner'),
  metadata: Type.Object({ ownedByWorkspace: Identifier, uuid: Type.Optional(Type.String()) }),
  spec: Type.Object({
    displayName: NonEmptyShortString,
    publicKey: Type.Optional(Type.String({ maxLength: TEXT_LIMITS.publicKey })),
    implementationType: StringEnum(RUNNER_IMPLEMENTATION_TYPES),
    restriction: Type.Optional(StringEnum(RUNNER_RESTRICTIONS)),
    isSelfHosted: Type.Optional(Type.Boolean()),
  }),
});

/** A runner's public key: a PEM X.509 certificate (or public key) holding an RSA key; anything else is 400. */
function checkPublicKey(pem: string): void {
  try {
    runnerPublicKey(pem);
  } catch (error) {
    throw badRequest(`spec.publicKey: must be a PEM X.509 certificate with an RSA key (${(error as Error).message})`);
  }
}

/** A runner body, with `metadata.uuid` when sent and whether `restriction` was (a PUT keeps what it omits). */
export interface DecodedRunner {
  input: RunnerInput;
  uuid?: string;
  sentRestriction: boolean;
}

/** meshBuildingBlockRunner v1-preview (COMPAT §10). */
export const runnerV1Preview = objectVersion('meshBuildingBlockRunner', 'v1-preview', {
  answer: {
    metadata: Echoed({ uuid: Uuid, ownedByWorkspace: Identifier, createdOn: DateTime, lastSeen: Nullable(DateTime) }),
    spec: Echoed({
      displayName: Type.String(),
      publicKey: Type.Optional(Type.String()),
      implementationType: StringEnum(RUNNER_IMPLEMENTATION_TYPES),
      restriction: StringEnum(RUNNER_RESTRICTIONS),
      isSelfHosted: Type.Optional(Type.Boolean()),
    }),
  },
  body: Body,
  decode({ metadata, spec }): DecodedRunner {
    if (spec.publicKey !== undefined) checkPublicKey(spec.publicKey);
    return {
      input: {
        ownedByWorkspace: metadata.ownedByWorkspace,
        implementationType: spec.implementationType,
        restriction: spec.restriction ?? 'PRIVATE',
        document: sentObject(metadata, spec),
      },
      ...sentUuid(metadata),
      sentRestriction: spec.restriction !== undefined,
    };
  },
  encode: (runner: Runner, view: EncodeView) => ({
    metadata: {
      ...runner.document.metadata,
      uuid: runner.uuid,
      ownedByWorkspace: runner.ownedByWorkspace,
      createdOn: runner.createdOn,
      lastSeen: runner.lastSeen ?? null,
    },
    spec: { ...runner.document.spec, implementationType: runner.implementationType, restriction: runner.restriction },
    _links: selfLink(view, RUNNERS_PATH, runner.uuid),
  }),
});
