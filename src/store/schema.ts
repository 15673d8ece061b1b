/**
 * Table types for Kysely. Columns hold portable types only (text, integer, boolean as integer 0/1 on
 * SQLite via the repositories), so one query code path serves SQLite and PostgreSQL.
 */
export interface MetaTable {
  key: string;
  value: string;
}

export interface Tables {
  blockyard_meta: MetaTable;
}
