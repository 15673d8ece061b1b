import type { RequestContext } from '../../auth/context.js';
import type { Action } from '../../auth/permissions.js';
import { isAllowedAsManager } from '../../auth/policy.js';
import { insufficientPermissions, notFound } from '../../lib/errors.js';
import type { Block } from '../block/model.js';
import type { Run } from '../block/run.js';
import type { LockInfo, Locked, TerraformStateService } from './service.js';

/** Where a state lives: `/api/terraform/state/workspace/<workspace>/buildingBlock/<block uuid>`. */
export interface StateAddress {
  workspace: string;
  blockUuid: string;
}

/**
 * Who may read and write a block's Terraform state: the run tokens of that block's runs (the runner
 * sends one as the Basic password, as Terraform's HTTP backend allows), admins (`ADM_TFSTATE_*`, API
 * users) and the platform team that owns the block's definition (`MANAGED_TFSTATE_*`). The state holds
 * the block's secrets, so the block's own workspace does not read it. Everyone else finds nothing
 * there (404), as for a block that does not exist; a run token of another block is refused (403).
 */
export class AuthorizedTerraformStateService {
  constructor(
    private readonly inner: TerraformStateService,
    private readonly blocks: { find(uuid: string): Promise<Block | undefined> },
    private readonly runs: { find(uuid: string): Promise<Run | undefined> },
  ) {}

  private async block(ctx: RequestContext, { workspace, blockUuid }: StateAddress, action: Action): Promise<Block> {
    const uuid = blockUuid.toLowerCase();
    const block = await this.blocks.find(uuid);
    const nothing = notFound(`no Terraform state of meshBuildingBlock ${blockUuid} in meshWorkspace ${workspace}`);
    if (!block || block.workspace !== workspace) throw nothing;
    const { principal } = ctx;
    if (principal.type === 'runToken') {
      const run = await this.runs.find(principal.runUuid);
      if (run?.blockUuid === block.uuid) return block;
      throw insufficientPermissions("a run token reads and writes its own building block's Terraform state only");
    }
    if (isAllowedAsManager(principal, `TFSTATE_${action}`, block.definitionOwner)) return block;
    throw nothing;
  }

  async read(ctx: RequestContext, address: StateAddress): Promise<string | undefined> {
    return this.inner.read((await this.block(ctx, address, 'LIST')).uuid);
  }

  async write(ctx: RequestContext, address: StateAddress, state: string, lockId: string | undefined): Promise<Locked | undefined> {
    return this.inner.write((await this.block(ctx, address, 'SAVE')).uuid, state, lockId);
  }

  async remove(ctx: RequestContext, address: StateAddress, lockId: string | undefined): Promise<Locked | undefined> {
    return this.inner.remove((await this.block(ctx, address, 'DELETE')).uuid, lockId);
  }

  async lock(ctx: RequestContext, address: StateAddress, info: LockInfo): Promise<Locked | undefined> {
    return this.inner.lock((await this.block(ctx, address, 'SAVE')).uuid, info);
  }

  async unlock(ctx: RequestContext, address: StateAddress, info: LockInfo): Promise<Locked | undefined> {
    return this.inner.unlock((await this.block(ctx, address, 'SAVE')).uuid, info);
  }
}
