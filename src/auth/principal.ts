/** Who is calling. Built once per request by the authentication hook (auth/authenticate.ts). */
export type Principal =
  /** `expiresAt`: the key's own expiry as sent (a key never makes a key that outlives it). */
  | { type: 'apiKey'; id: string; workspace: string; permissions: ReadonlySet<string>; displayName: string; expiresAt?: string }
  | { type: 'apiUser'; id: string }
  /** A run token: may only report status for (and read) its own run. */
  /** `claimedBy`: who claimed the run (`apiKey:<id>` or `apiUser:<name>`), when the token says. */
  | { type: 'runToken'; id: string; runUuid: string; claimedBy?: string }
  /**
   * A SCIM client (issue 19, item 7), by its SCIM token: holds the `ADM_` codes of users and groups it
   * provisions, and reaches the SCIM routes only (route access `scim`), nothing else.
   */
  | { type: 'scim'; id: string; permissions: ReadonlySet<string> }
  /** The service itself (bootstrap, the admin CLI, background work): never from a request. */
  | { type: 'system'; id: string };
