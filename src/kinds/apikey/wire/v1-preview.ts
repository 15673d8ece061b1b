import { Type } from '@sinclair/typebox';
import { compileDecoder } from '../../../lib/validation.js';
import { DateTime, Identifier, Links, NonEmptyShortString, Nullable, ShortString, Uuid } from '../../../lib/wire-schemas.js';
import { objectUrl } from '../../paths.js';
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
const decodeBody = compileDecoder(Body);

const Answer = Type.Object({
  apiVersion: Type.Literal('v1-preview'),
  kind: Type.Literal('meshApiKey'),
  metadata: Type.Object({ uuid: Uuid, ownedByWorkspace: Identifier, createdOn: DateTime }),
  spec: Type.Object({ displayName: Type.String(), permissions: Type.Array(Type.String()), expiresAt: Nullable(Type.String()) }),
  status: Type.Object({
    clientId: Uuid,
    clientSecret: Nullable(Type.String({ description: 'only in the answer that created or rotated the secret' })),
  }),
  _links: Links,
});

/** meshApiKey v1-preview (COMPAT §5): the secret only in the answer that made it. */
export const apiKeyV1Preview = {
  media: { kind: 'meshapikey', version: 'v1-preview' } as const,
  schema: Answer,
  bodySchema: Body,
  decode(body: unknown): ApiKeyInput {
    const { metadata, spec } = decodeBody(body);
    return {
      ownedByWorkspace: metadata.ownedByWorkspace,
      displayName: spec.displayName,
      permissions: spec.permissions,
      ...(spec.expiresAt !== undefined ? { expiresAt: spec.expiresAt } : {}),
    };
  },
  encode(key: ApiKey, { baseUrl, secret }: { baseUrl: string; secret?: string }) {
    return {
      apiVersion: 'v1-preview',
      kind: 'meshApiKey',
      metadata: { uuid: key.uuid, ownedByWorkspace: key.ownedByWorkspace, createdOn: key.createdOn },
      spec: { displayName: key.displayName, permissions: key.permissions, expiresAt: key.expiresAt ?? null },
      status: { clientId: key.uuid, clientSecret: secret ?? null },
      _links: { self: { href: objectUrl(baseUrl, API_KEYS_PATH, key.uuid) } },
    };
  },
};
