/**
 * Table types for Kysely. Columns hold portable types only (text, integer, boolean as integer 0/1 on
 * SQLite via the repositories), so one query code path serves SQLite and PostgreSQL.
 */
export interface ApiKeyTable {
  uuid: string;
  owned_by_workspace: string;
  display_name: string;
  /** JSON array of permission codes. */
  permissions: string;
  expires_at: string | null;
  secret_hash: string;
  created_on: string;
}

export interface ApiUserTable {
  username: string;
  password_hash: string;
  created_on: string;
}

export interface SigningKeyTable {
  kid: string;
  public_jwk: string;
  private_jwk_encrypted: string;
  created_on: string;
}

export interface Tables {
  api_keys: ApiKeyTable;
  api_users: ApiUserTable;
  signing_keys: SigningKeyTable;
}
