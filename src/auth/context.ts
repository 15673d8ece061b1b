import type { Principal } from './principal.js';

/**
 * What every service call carries: who is asking. Authorized services decide with it; plain services
 * only pass it on (an object's author, later its events).
 */
export interface RequestContext {
  readonly principal: Principal;
}

/** The service acting on its own behalf: bootstrap, the admin CLI, background sweeps. */
export const SYSTEM: RequestContext = Object.freeze({ principal: Object.freeze({ type: 'system' as const, id: 'blockyard' }) });
