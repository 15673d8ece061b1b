import type { ApiKeyService } from '../kinds/apikey/service.js';
import type { ApiUserService } from '../kinds/apiuser/service.js';
import { RUN_TOKEN_GRACE_SECONDS } from '../kinds/run/model.js';
import type { RunService } from '../kinds/run/service.js';
import { isRunTokenSubject, RUN_TOKEN_PREFIX, type TokenClaims, type TokenRevocation } from './tokens.js';

/**
 * What revokes a validly signed, unexpired token. Every answer comes from state
 * cached for at most 5 s per instance and dropped at once on the instance that changed it, so a
 * revocation takes effect on every instance within 5 s, tokens issued before included:
 * - an API key's token, when the key's secret was rotated since (its revision went up). A key that is
 *   gone or expired is refused by the authenticator, which reads the same cached key for the
 *   principal; so a token's permissions are always the key's as they are now.
 * - a run token, RUN_TOKEN_GRACE_SECONDS after its run ended, and as soon as the API key or API user
 *   that claimed the run is deleted (or the key expired).
 */
export class RevocationRules implements TokenRevocation {
  constructor(
    private readonly apiKeys: ApiKeyService,
    private readonly apiUsers: ApiUserService,
    private readonly runs: RunService,
  ) {}

  async isRevoked(claims: TokenClaims): Promise<boolean> {
    if (!isRunTokenSubject(claims.subject)) {
      const key = await this.apiKeys.findActive(claims.subject);
      return key !== undefined && key.revision !== claims.revision;
    }
    if (claims.claimedBy !== undefined && !(await this.claimantActive(claims.claimedBy))) return true;
    const endedOn = await this.runs.endedOn(claims.subject.slice(RUN_TOKEN_PREFIX.length));
    return endedOn !== undefined && Date.now() > Date.parse(endedOn) + RUN_TOKEN_GRACE_SECONDS * 1000;
  }

  private async claimantActive(claimedBy: string): Promise<boolean> {
    const colon = claimedBy.indexOf(':');
    const [type, id] = [claimedBy.slice(0, colon), claimedBy.slice(colon + 1)];
    if (type === 'apiKey') return (await this.apiKeys.findActive(id)) !== undefined;
    if (type === 'apiUser') return this.apiUsers.exists(id);
    return false;
  }
}
