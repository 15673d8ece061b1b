import { Type } from '@sinclair/typebox';
import { badRequest } from '../../lib/errors.js';
import { empty, type Call, type Operation, type Reply } from '../operation.js';
import type { AuthorizedTerraformStateService, StateAddress } from './authorized-service.js';
import type { LockInfo, Locked } from './service.js';

export const STATE_PATH = '/api/terraform/state/workspace/:workspace/buildingBlock/:block';
/** The largest state taken (a state is JSON that grows with the resources a module manages). */
export const STATE_MAX_BYTES = 16 * 1024 * 1024;

const JSON_TYPE = 'application/json';
const AnyJson = Type.Unknown({ description: 'JSON as Terraform wrote it' });
const LockInfoSchema = Type.Record(Type.String(), Type.Unknown(), {
  description: 'the lock info of the lock held (Terraform reads it to say who holds it)',
});
const params = Type.Object({
  workspace: Type.String({ description: 'the block’s workspace' }),
  block: Type.String({ description: 'the building block’s uuid' }),
});
const lockQuery = Type.Object({
  ID: Type.Optional(Type.String({ description: 'the id of the lock this client holds (Terraform sends it while locked)' })),
});

const addressOf = (call: Call): StateAddress => ({ workspace: call.params.workspace!, blockUuid: call.params.block! });
const lockIdOf = (call: Call) => (typeof call.query.ID === 'string' ? call.query.ID : undefined);
const text = (call: Call) => (typeof call.body === 'string' ? call.body : '');
/** 423 Locked with the holder's lock info, as Terraform's HTTP backend expects; else `done`. */
const answer = (locked: Locked | undefined, done: Reply): Reply =>
  locked ? { status: 423, body: locked.held, headers: { 'content-type': JSON_TYPE } } : done;

function lockInfoOf(call: Call): LockInfo {
  let info: unknown;
  try {
    info = JSON.parse(text(call));
  } catch {
    throw badRequest('body: the lock info must be JSON');
  }
  if (info === null || typeof info !== 'object' || Array.isArray(info)) throw badRequest('body: the lock info must be a JSON object');
  return info as LockInfo;
}

function stateOf(call: Call): string {
  const state = text(call);
  try {
    JSON.parse(state);
  } catch {
    throw badRequest('body: the state must be JSON');
  }
  return state;
}

const locked = {
  423: { description: 'locked by another client: the lock info of the holder', body: [{ media: JSON_TYPE, schema: LockInfoSchema }] },
};

/**
 * Terraform's HTTP backend protocol (`backend "http"`, with `lock_address` and `unlock_address` on the
 * same address for locking), as the original's Terraform runner configures it: GET the state (204
 * when there is none), POST it (`?ID=` while locked), DELETE it, LOCK and UNLOCK with the lock info.
 * Bodies are taken as they are and the state answered byte for byte.
 */
export function terraformStateOperations(states: AuthorizedTerraformStateService): Operation[] {
  const common = { path: STATE_PATH, access: 'tfstate' as const, rawBody: { limitBytes: STATE_MAX_BYTES } };
  return [
    {
      ...common,
      method: 'GET',
      doc: {
        summary: 'Read a building block’s Terraform state',
        params,
        responses: {
          200: { description: 'the state', body: [{ media: JSON_TYPE, schema: AnyJson }] },
          204: { description: 'no state yet' },
        },
      },
      handle: async (call) => {
        const state = await states.read(call.ctx, addressOf(call));
        return state === undefined ? empty(204) : { status: 200, body: state, headers: { 'content-type': JSON_TYPE } };
      },
    },
    {
      ...common,
      method: 'POST',
      doc: {
        summary: 'Write a building block’s Terraform state',
        params,
        query: lockQuery,
        body: [{ media: JSON_TYPE, schema: AnyJson }],
        responses: { 200: { description: 'stored' }, ...locked },
      },
      handle: async (call) => answer(await states.write(call.ctx, addressOf(call), stateOf(call), lockIdOf(call)), empty(200)),
    },
    {
      ...common,
      method: 'DELETE',
      doc: {
        summary: 'Delete a building block’s Terraform state',
        params,
        query: lockQuery,
        responses: { 200: { description: 'deleted' }, ...locked },
      },
      handle: async (call) => answer(await states.remove(call.ctx, addressOf(call), lockIdOf(call)), empty(200)),
    },
    {
      ...common,
      method: 'LOCK',
      doc: { summary: 'Lock a building block’s Terraform state', params, responses: { 200: { description: 'locked' }, ...locked } },
      handle: async (call) => answer(await states.lock(call.ctx, addressOf(call), lockInfoOf(call)), empty(200)),
    },
    {
      ...common,
      method: 'UNLOCK',
      doc: { summary: 'Unlock a building block’s Terraform state', params, responses: { 200: { description: 'unlocked' }, ...locked } },
      handle: async (call) => answer(await states.unlock(call.ctx, addressOf(call), lockInfoOf(call)), empty(200)),
    },
  ];
}
