import { Type } from '@sinclair/typebox';
import { DateTime, Identifier, NonEmptyShortString, Nullable, ShortString, Uuid } from '../../../lib/wire-schemas.js';
import { objectVersion, selfLink } from '../../wire-helpers.js';
import type { ApiKey, ApiKeyInput } from '../model.js';
import { API_KEYS_PATH } from '../model.js';

const Body = Type.Object({
  metadata: Type.Object({ ownedByWorkspace: Identifier }),
  spec: Type.Object({
    displayName: NonEmptyShortString,
    permissions: Type.Array(ShortString, { maxItems: 500 }),
    expiresAt: Type.Optional(Type.Union([Type.String({ format: 'date' }), Type.String({ format: 'date-time' })])),
  }),
});

/** meshApiKey v1-preview (COMPAT §5): the secret only in the answer that made it. */
export const apiKeyV1Preview = objectVersion('meshApiKey', 'v1-preview', {
  answer: {
    metadata: Type.Object({ uuid: Uuid, ownedByWorkspace: Identifier, createdOn: DateTime }),
    spec: Type.Object({ displayName: Type.String(), permissions: Type.Array(Type.String()), expiresAt: Nullable(Type.String()) }),
    status: Type.Object({
      clientId: Uuid,
      clientSecret: Nullable(Type.String({ description: 'only in the answer that created or rotated the secret' })),
    }),
  },
  body: Body,
  decode: ({ metadata, spec }): ApiKeyInput => ({
    ownedByWorkspace: metadata.ownedByWorkspace,
    displayName: spec.displayName,
    permissions: spec.permissions,
    ...(spec.expiresAt !== undefined ? { expiresAt: spec.expiresAt } : {}),
  }),
  encode: (key: ApiKey, view: { baseUrl: string; secret?: string }) => ({
    metadata: { uuid: key.uuid, ownedByWorkspace: key.ownedByWorkspace, createdOn: key.createdOn },
    spec: { displayName: key.displayName, permissions: key.permissions, expiresAt: key.expiresAt ?? null },
    status: { clientId: key.uuid, clientSecret: view.secret ?? null },
    _links: selfLink(view, API_KEYS_PATH, key.uuid),
  }),
});
