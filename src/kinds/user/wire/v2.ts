import { Type } from '@sinclair/typebox';
import { badRequest } from '../../../lib/errors.js';
import { compileDecoder } from '../../../lib/validation.js';
import { Echoed, KindOf, Links, NonEmptyShortString, Nullable, ShortString, Tags, Uuid } from '../../../lib/wire-schemas.js';
import { normalizeUsername, usernameProblem } from '../../apiuser/model.js';
import type { RelationsView } from '../../codec.js';
import { sentObject } from '../../document.js';
import { objectUrl } from '../../paths.js';
import { relatedLinks } from '../../relations.js';
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
const decodeBody = compileDecoder(Body);

const Answer = Type.Object({
  apiVersion: Type.Literal('v2'),
  kind: Type.Literal('meshUser'),
  metadata: Echoed({ name: Type.String(), uuid: Uuid }),
  spec: Echoed({ email: Type.String(), firstName: Type.String(), lastName: Type.String(), euid: Nullable(Type.String()), tags: Tags }),
  _links: Links,
});

/** A username as the kind takes it (NFC, the API usernames' unambiguous set): 400 naming `field` otherwise. */
export function checkedUsername(value: string, field = 'metadata.name'): string {
  const username = normalizeUsername(value);
  const problem = usernameProblem(username);
  if (problem) throw badRequest(`${field}: a username is ${problem}, got ${JSON.stringify(value.slice(0, 300))}`);
  return username;
}

/** meshUser v2 (OpenAPI): `metadata{name, uuid}`, `spec{email, firstName, lastName, euid, tags}`. */
export const userV2 = {
  media: { kind: 'meshuser', version: 'v2' } as const,
  schema: Answer,
  bodySchema: Body,
  decode(body: unknown): UserInput {
    const { metadata, spec } = decodeBody(body);
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
  encode(user: User, view: RelationsView) {
    const { baseUrl } = view;
    return {
      apiVersion: 'v2',
      kind: 'meshUser',
      metadata: { ...user.document.metadata, name: user.username, uuid: user.uuid },
      spec: {
        ...user.document.spec,
        email: user.email,
        firstName: user.firstName,
        lastName: user.lastName,
        euid: user.euid ?? null,
        tags: user.document.spec.tags ?? {},
      },
      _links: {
        self: { href: objectUrl(baseUrl, USERS_PATH, user.username) },
        // A user belongs to no workspace: the groups of the caller's workspaces that hold it.
        ...relatedLinks(view, {
          meshworkspaceusergroups: { rel: 'meshworkspaceusergroups', query: `?username=${encodeURIComponent(user.username)}` },
        }),
      },
    };
  },
};
