import { Type } from '@sinclair/typebox';
import { compileDecoder } from '../../../http/validation.js';
import { Identifier, NonEmptyShortString, ShortString } from '../../../http/wire-schemas.js';
import type { ApiKey, ApiKeyInput } from '../model.js';

/** meshApiKey v1-preview on the wire (COMPAT §5). */
export const API_KEY_V1_PREVIEW = { kind: 'meshapikey', version: 'v1-preview' } as const;

const Body = Type.Object({
  metadata: Type.Object({ ownedByWorkspace: Identifier }),
  spec: Type.Object({
    displayName: NonEmptyShortString,
    permissions: Type.Array(ShortString, { maxItems: 500 }),
    expiresAt: Type.Optional(Type.Union([Type.String({ format: 'date' }), Type.String({ format: 'date-time' })])),
  }),
});

const decodeBody = compileDecoder(Body);

export function decodeApiKey(body: unknown): ApiKeyInput {
  const { metadata, spec } = decodeBody(body);
  return {
    ownedByWorkspace: metadata.ownedByWorkspace,
    displayName: spec.displayName,
    permissions: spec.permissions,
    ...(spec.expiresAt !== undefined ? { expiresAt: spec.expiresAt } : {}),
  };
}

export function encodeApiKey(key: ApiKey, baseUrl: string, secret?: string) {
  return {
    apiVersion: 'v1-preview',
    kind: 'meshApiKey',
    metadata: { uuid: key.uuid, ownedByWorkspace: key.ownedByWorkspace, createdOn: key.createdOn },
    spec: { displayName: key.displayName, permissions: key.permissions, expiresAt: key.expiresAt ?? null },
    status: { clientId: key.uuid, clientSecret: secret ?? null },
    _links: { self: { href: `${baseUrl}/api/meshobjects/meshapikeys/${encodeURIComponent(key.uuid)}` } },
  };
}
