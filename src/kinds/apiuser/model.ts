import { MAX_STRING } from '../../lib/limits.js';

/** An API user (Basic auth, admin-equivalent, spec 5.1). The password itself is never kept. */
export interface ApiUser {
  username: string;
  createdOn: string;
}

/**
 * The username and password rules, for the API, the bootstrap configuration and the admin CLI alike.
 * A username: 1–255 characters (MAX_STRING), no colon (Basic splits there) or whitespace, and not `.` or `..`: URL
 * clients resolve those path segments away (even escaped as `%2E`), so the user's self link could
 * never be reached.
 */
export const USERNAME_PATTERN = '^(?!\\.{1,2}$)[^:\\s]+$';
export const USERNAME_MAX_LENGTH = MAX_STRING;
export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 1024;
const USERNAME = new RegExp(USERNAME_PATTERN);

/** What is wrong with a username, or undefined. */
export function usernameProblem(username: string): string | undefined {
  if (username.length === 0 || username.length > USERNAME_MAX_LENGTH || !USERNAME.test(username)) {
    return `1 to ${USERNAME_MAX_LENGTH} characters without colons or whitespace, and not "." or ".."`;
  }
  return undefined;
}

/** What is wrong with a password, or undefined. */
export function passwordProblem(password: string): string | undefined {
  if (password.length < PASSWORD_MIN_LENGTH) return `at least ${PASSWORD_MIN_LENGTH} characters`;
  if (password.length > PASSWORD_MAX_LENGTH) return `at most ${PASSWORD_MAX_LENGTH} characters`;
  return undefined;
}
