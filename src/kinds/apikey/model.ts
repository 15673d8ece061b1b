/** Its collection path. */
export const API_KEYS_PATH = '/api/meshobjects/meshapikeys';
/** The internal API key (one type; wire versions in wire/). The secret itself is never kept. */
export interface ApiKey {
  /** Also the OAuth client id. */
  uuid: string;
  ownedByWorkspace: string;
  displayName: string;
  permissions: string[];
  /** As sent (a date `2025-12-31` or a date-time), echoed unchanged. */
  expiresAt?: string;
  secretHash: string;
  createdOn: string;
  /** Bumped at every secret rotation; tokens carry the revision they were issued under, older ones are refused. */
  revision: number;
}

export interface ApiKeyInput {
  ownedByWorkspace: string;
  displayName: string;
  permissions: string[];
  expiresAt?: string;
}

/** A date-only `expiresAt` means "valid through that day (UTC)". */
export function expiryInstant(expiresAt: string | undefined): number {
  if (expiresAt === undefined) return Number.POSITIVE_INFINITY;
  const instant = Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(expiresAt) ? `${expiresAt}T00:00:00Z` : expiresAt);
  return /^\d{4}-\d{2}-\d{2}$/.test(expiresAt) ? instant + 86_400_000 : instant;
}

export const isExpired = (key: Pick<ApiKey, 'expiresAt'>, now = Date.now()) => expiryInstant(key.expiresAt) <= now;
