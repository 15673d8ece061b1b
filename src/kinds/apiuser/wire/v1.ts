import { Type } from '@sinclair/typebox';
import { compileDecoder } from '../../../lib/validation.js';
import { objectUrl, PATHS } from '../../paths.js';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, USERNAME_MAX_LENGTH, USERNAME_PATTERN, type ApiUser } from '../model.js';

const decodeBody = compileDecoder(
  Type.Object({
    username: Type.String({ minLength: 1, maxLength: USERNAME_MAX_LENGTH, pattern: USERNAME_PATTERN }),
    password: Type.String({ minLength: PASSWORD_MIN_LENGTH, maxLength: PASSWORD_MAX_LENGTH }),
  }),
);

/** The admin area's API users, kind `apiUser` v1 (this service's own: the spec does not show it). */
export const apiUserV1 = {
  media: { kind: 'apiuser', version: 'v1' } as const,
  decode: (body: unknown): { username: string; password: string } => decodeBody(body),
  encode(user: ApiUser, { baseUrl }: { baseUrl: string }) {
    return { kind: 'apiUser', apiVersion: 'v1', username: user.username, createdOn: user.createdOn, _links: { self: { href: objectUrl(baseUrl, PATHS.apiUsers, user.username) } } };
  },
};
