/** Who is calling. Built once per request by the authentication hook (auth/authenticate.ts). */
export type Principal =
  /** `expiresAt`: the key's own expiry as sent (a key never makes a key that outlives it). */
  | { type: 'apiKey'; id: string; workspace: string; permissions: ReadonlySet<string>; displayName: string; expiresAt?: string }
  | { type: 'apiUser'; id: string }
  /**
   * A person (a meshUser, `id` its username) acting in one workspace at a time, as a key does:
   * `permissions` are what its role bindings grant there (auth/roles.ts, auth/people.ts), `ADM_` codes
   * included when it holds a role in the admin workspace (`admin`).
   */
  | { type: 'person'; id: string; workspace: string; permissions: ReadonlySet<string>; admin: boolean }
  /** A run token: may only report status for (and read) its own run. */
  /** `claimedBy`: who claimed the run (`apiKey:<id>` or `apiUser:<name>`), when the token says. */
  | { type: 'runToken'; id: string; runUuid: string; claimedBy?: string }
  /**
   * A SCIM client, by its SCIM token: holds the `ADM_` codes of users and groups it
   * provisions, and reaches the SCIM routes only (route access `scim`), nothing else.
   */
  | { type: 'scim'; id: string; permissions: ReadonlySet<string> }
  /** The service itself (bootstrap, the admin CLI, background work): never from a request. */
  | { type: 'system'; id: string };

/** A principal that acts in one workspace with permission codes: an API key, or a person. */
export type WorkspacePrincipal = Extract<Principal, { type: 'apiKey' | 'person' }>;

/** Whether the caller acts in one workspace with codes: every rule for keys applies to people alike. */
export const actsInWorkspace = (principal: Principal): principal is WorkspacePrincipal =>
  principal.type === 'apiKey' || principal.type === 'person';
