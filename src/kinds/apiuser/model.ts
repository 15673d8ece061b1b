import { MAX_STRING } from '../../lib/limits.js';

/** Its collection path. */
export const API_USERS_PATH = '/api/admin/apiusers';

/** An API user (Basic auth, admin-equivalent, spec 5.1). The password itself is never kept. */
export interface ApiUser {
  username: string;
  createdOn: string;
}

/**
 * The username and password rules, for the API, the bootstrap configuration and the admin CLI alike.
 * A username is taken in Unicode NFC (names that normalise equal are one name) and drawn from an
 * unambiguous set: lower-case ASCII letters, digits, `.`, `_`, `-` and `@`, starting and ending with
 * a letter or digit, at most 255 characters. No look-alikes (a Cyrillic `о` beside a Latin `o`), no
 * case twins, no colon (Basic splits there), no `.`/`..` (URL clients resolve those path segments
 * away, so the user's self link could not be reached).
 */
export const USERNAME_MAX_LENGTH = MAX_STRING;
export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 1024;
const USERNAME = /^[a-z0-9](?:[a-z0-9._@-]*[a-z0-9])?$/;

/** The one form a username is compared and stored in. */
export const normalizeUsername = (username: string) => username.normalize('NFC');

/** What is wrong with a (normalised) username, or undefined. */
export function usernameProblem(username: string): string | undefined {
  if (username.length === 0 || username.length > USERNAME_MAX_LENGTH || !USERNAME.test(username)) {
    return `1 to ${USERNAME_MAX_LENGTH} characters of a-z, 0-9, ".", "_", "-" and "@", starting and ending with a letter or digit`;
  }
  return undefined;
}

/** What is wrong with a password, or undefined. */
export function passwordProblem(password: string): string | undefined {
  if (password.length < PASSWORD_MIN_LENGTH) return `at least ${PASSWORD_MIN_LENGTH} characters`;
  if (password.length > PASSWORD_MAX_LENGTH) return `at most ${PASSWORD_MAX_LENGTH} characters`;
  return undefined;
}
