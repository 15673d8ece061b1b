import { Type } from '@sinclair/typebox';
import { badRequest } from '../../../lib/errors.js';
import { Echoed, KindOf, NonEmptyShortString, Nullable, ShortString, Tags, Uuid } from '../../../lib/wire-schemas.js';
import { normalizeUsername, usernameProblem } from '../../apiuser/model.js';
import type { RelationsView } from '../../codec.js';
import { sentObject } from '../../document.js';
import { objectLinks, objectVersion } from '../../wire-helpers.js';
import type { User, UserInput } from '../model.js';
import { USERS_PATH } from '../model.js';

const EMAIL = '^[^@\\s]+@[^@\\s]+$';

const Body = Type.Object({
  kind: KindOf('meshUser'),
  metadata: Type.Object({ name: Type.String({ minLength: 1, maxLength: 1024 }) }),
  spec: Type.Object({
    email: Type.String({ pattern: EMAIL, maxLength: 255 }),
    firstName: ShortString,
    lastName: ShortString,
    euid: Type.Optional(NonEmptyShortString),
    tags: Type.Optional(Tags),
  }),
});

/** A username as the kind takes it (NFC, the API usernames' unambiguous set): 400 naming `field` otherwise. */
export function checkedUsername(value: string, field = 'metadata.name'): string {
  const username = normalizeUsername(value);
  const problem = usernameProblem(username);
  if (problem) throw badRequest(`${field}: a username is ${problem}, got ${JSON.stringify(value.slice(0, 300))}`);
  return username;
}

/** meshUser v2 (OpenAPI): `metadata{name, uuid}`, `spec{email, firstName, lastName, euid, tags}`. */
export const userV2 = objectVersion('meshUser', 'v2', {
  answer: {
    metadata: Echoed({ name: Type.String(), uuid: Uuid }),
    spec: Echoed({ email: Type.String(), firstName: Type.String(), lastName: Type.String(), euid: Nullable(Type.String()), tags: Tags }),
  },
  body: Body,
  decode({ metadata, spec }): UserInput {
    const username = checkedUsername(metadata.name);
    return {
      username,
      email: spec.email,
      firstName: spec.firstName,
      lastName: spec.lastName,
      ...(spec.euid !== undefined ? { euid: spec.euid } : {}),
      document: sentObject({ ...metadata, name: username }, spec),
    };
  },
  encode: (user: User, view: RelationsView) => ({
    metadata: { ...user.document.metadata, name: user.username, uuid: user.uuid },
    spec: {
      ...user.document.spec,
      email: user.email,
      firstName: user.firstName,
      lastName: user.lastName,
      euid: user.euid ?? null,
      tags: user.document.spec.tags ?? {},
    },
    // A user belongs to no workspace: the groups of the caller's workspaces that hold it.
    _links: objectLinks(view, USERS_PATH, user.username, {
      meshworkspaceusergroups: { rel: 'meshworkspaceusergroups', query: `?username=${encodeURIComponent(user.username)}` },
    }),
  }),
});
