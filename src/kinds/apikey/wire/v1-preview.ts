import { Type } from '@sinclair/typebox';
import { compileDecoder } from '../../../lib/validation.js';
import { Identifier, NonEmptyShortString, ShortString } from '../../../lib/wire-schemas.js';
import { objectUrl, PATHS } from '../../paths.js';
import type { ApiKey, ApiKeyInput } from '../model.js';

const decodeBody = compileDecoder(
  Type.Object({
    metadata: Type.Object({ ownedByWorkspace: Identifier }),
    spec: Type.Object({
      displayName: NonEmptyShortString,
      permissions: Type.Array(ShortString, { maxItems: 500 }),
      expiresAt: Type.Optional(Type.Union([Type.String({ format: 'date' }), Type.String({ format: 'date-time' })])),
    }),
  }),
);

/** meshApiKey v1-preview (COMPAT §5): the secret only in the answer that made it. */
export const apiKeyV1Preview = {
  media: { kind: 'meshapikey', version: 'v1-preview' } as const,
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
      _links: { self: { href: objectUrl(baseUrl, PATHS.apiKeys, key.uuid) } },
    };
  },
};
