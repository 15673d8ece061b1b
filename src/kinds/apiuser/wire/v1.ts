import { Type } from '@sinclair/typebox';
import { compileDecoder } from '../../../lib/validation.js';
import { DateTime, Links } from '../../../lib/wire-schemas.js';
import { objectUrl } from '../../paths.js';
import { API_USERS_PATH, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, type ApiUser } from '../model.js';

const Body = Type.Object({
  // The username's rules are the kind's (model.ts), checked on its normalised form by the service.
  username: Type.String({ minLength: 1, maxLength: 1024 }),
  password: Type.String({ minLength: PASSWORD_MIN_LENGTH, maxLength: PASSWORD_MAX_LENGTH }),
});
const decodeBody = compileDecoder(Body);

const Answer = Type.Object({
  kind: Type.Literal('apiUser'),
  apiVersion: Type.Literal('v1'),
  username: Type.String(),
  createdOn: DateTime,
  _links: Links,
});

/** The admin area's API users, kind `apiUser` v1 (this service's own: the spec does not show it). */
export const apiUserV1 = {
  media: { kind: 'apiuser', version: 'v1' } as const,
  schema: Answer,
  bodySchema: Body,
  decode: (body: unknown): { username: string; password: string } => decodeBody(body),
  encode(user: ApiUser, { baseUrl }: { baseUrl: string }) {
    return {
      kind: 'apiUser',
      apiVersion: 'v1',
      username: user.username,
      createdOn: user.createdOn,
      _links: { self: { href: objectUrl(baseUrl, API_USERS_PATH, user.username) } },
    };
  },
};
