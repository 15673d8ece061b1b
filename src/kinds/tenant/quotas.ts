import { badRequest } from '../../lib/errors.js';
import type { TenantQuota } from './model.js';

/** A platform's `spec.quotaDefinitions[]` entry (OpenAPI, as the Terraform provider sends it). */
interface QuotaDefinition {
  quotaKey: string;
  minValue?: number;
  maxValue?: number;
  autoApprovalThreshold?: number;
}

const definitionsOf = (platformSpec: Record<string, unknown>): QuotaDefinition[] =>
  (Array.isArray(platformSpec.quotaDefinitions) ? platformSpec.quotaDefinitions : []).filter(
    (entry): entry is QuotaDefinition =>
      typeof entry === 'object' && entry !== null && typeof (entry as QuotaDefinition).quotaKey === 'string',
  );

/**
 * The platform's guardrails on a new tenant's requested quotas: each within its definition's
 * `[minValue, maxValue]`, and, unless the caller may set any quota (an admin: it also defines the
 * limits), at most the definition's `autoApprovalThreshold` (nothing here queues a request for an
 * operator's approval). 400 naming the quota otherwise, with the original's "is out of range".
 */
export function checkRequestedQuotas(
  requested: readonly TenantQuota[],
  platformSpec: Record<string, unknown>,
  field: string,
  beyondThreshold: boolean,
): void {
  const definitions = new Map(definitionsOf(platformSpec).map((definition) => [definition.quotaKey, definition]));
  for (const { key, value } of requested) {
    const definition = definitions.get(key);
    if (!definition) continue;
    const { minValue = -Infinity, maxValue = Infinity, autoApprovalThreshold } = definition;
    if (value < minValue || value > maxValue)
      throw badRequest(`${field}.${key}: ${value} is out of range [${definition.minValue ?? ''}, ${definition.maxValue ?? ''}]`);
    if (!beyondThreshold && autoApprovalThreshold !== undefined && value > autoApprovalThreshold) {
      throw badRequest(`${field}.${key}: ${value} is out of range for automatic approval (at most ${autoApprovalThreshold})`);
    }
  }
}

/** What a tenant gets: its landing zone's quotas, each overridden by the tenant's own request. */
export function appliedQuotas(
  requested: readonly TenantQuota[],
  landingZoneSpec: Record<string, unknown> | undefined,
): Record<string, { value: number }> {
  const applied: Record<string, { value: number }> = {};
  const defaults = Array.isArray(landingZoneSpec?.quotas) ? (landingZoneSpec.quotas as TenantQuota[]) : [];
  for (const { key, value } of [...defaults, ...requested]) applied[key] = { value };
  return applied;
}
