import { ApiError } from '../lib/errors.js';

export const ERROR_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:Error';

/** RFC 7644 §3.12 `scimType` values this server uses. */
export type ScimType =
  'invalidFilter' | 'tooMany' | 'uniqueness' | 'mutability' | 'invalidSyntax' | 'invalidPath' | 'noTarget' | 'invalidValue';

/** An error in SCIM's format (RFC 7644 §3.12): `status` as a string, `scimType` where RFC 7644 defines one. */
export class ScimError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly scimType?: ScimType,
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
  }

  body() {
    return {
      schemas: [ERROR_SCHEMA],
      status: String(this.status),
      ...(this.scimType ? { scimType: this.scimType } : {}),
      detail: this.detail,
    };
  }
}

export const invalidValue = (detail: string) => new ScimError(400, detail, 'invalidValue');
export const invalidFilter = (detail: string) => new ScimError(400, detail, 'invalidFilter');
export const invalidPath = (detail: string) => new ScimError(400, detail, 'invalidPath');
export const invalidSyntax = (detail: string) => new ScimError(400, detail, 'invalidSyntax');
export const noTarget = (detail: string) => new ScimError(400, detail, 'noTarget');
export const mutability = (detail: string) => new ScimError(400, detail, 'mutability');
export const scimNotFound = (detail: string) => new ScimError(404, detail);

/**
 * The service's errors in SCIM's terms: a missing or invalid reference (422) is `invalidValue`, a
 * conflict (409: the username, externalId or group exists) is `uniqueness`, a body that cannot be
 * parsed is `invalidSyntax`, another 400 `invalidValue`; the status stays otherwise (401, 403, 404, 413, 415, 429, 5xx).
 */
export function toScimError(error: unknown): ScimError | undefined {
  if (error instanceof ScimError) return error;
  if (!(error instanceof ApiError)) return undefined;
  switch (error.status) {
    case 400:
      // A body that is no JSON (or too deep, or with __proto__ keys): the message structure is invalid.
      return new ScimError(400, error.message, error.message.startsWith('body:') ? 'invalidSyntax' : 'invalidValue', error.headers);
    case 422:
      return new ScimError(400, error.message, 'invalidValue', error.headers);
    case 409:
      return new ScimError(409, error.message, 'uniqueness', error.headers);
    default:
      return new ScimError(error.status, error.status >= 500 ? 'internal error' : error.message, undefined, error.headers);
  }
}
