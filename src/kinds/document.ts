/**
 * The structure kinds store an object as its client sent it (COMPAT §3 "echo fidelity": fields the
 * service does not interpret come back unchanged) and add computed fields only when rendering.
 */
export interface SentObject {
  metadata: Record<string, unknown>;
  spec: Record<string, unknown>;
  /** What the service decided when it wrote the object and keeps with it (a tenant's applied quotas). */
  status?: Record<string, unknown>;
}

/** Metadata keys the service computes: whatever a client sends for them is dropped, not stored. */
const COMPUTED_METADATA = ['uuid', 'createdOn', 'deletedOn', 'markedForDeletionOn', 'markedForDeletionBy'];

export function sentObject(metadata: object, spec: object): SentObject {
  const kept: Record<string, unknown> = { ...metadata };
  for (const key of COMPUTED_METADATA) delete kept[key];
  return { metadata: kept, spec: { ...spec } };
}

export const serializeDocument = (document: SentObject) => JSON.stringify(document);
export const parseDocument = (text: string) => JSON.parse(text) as SentObject;
