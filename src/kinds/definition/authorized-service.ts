import type { RequestContext } from '../../auth/context.js';
import { holdsCode, isAdminFor, isAllowed, requireAllowed, seesWorkspace } from '../../auth/policy.js';
import { actsInWorkspace, type Principal } from '../../auth/principal.js';
import { badRequest, insufficientPermissions, notFound, unprocessable } from '../../lib/errors.js';
import { emptyPage, type Page, type PageRequest } from '../../lib/paging.js';
import type { AuthorizedIntegrationService } from '../integration/authorized-service.js';
import type { AuthorizedRunnerService } from '../runner/authorized-service.js';
import type { AuthorizedTagDefinitionService } from '../tagdefinition/authorized-service.js';
import { placeTags } from '../tagdefinition/model.js';
import { CallerView } from '../view.js';
import {
  dependencyUuids,
  isPublished,
  latestReleased,
  offeredVersion,
  type Definition,
  type DefinitionInput,
  type DefinitionVersion,
  type OfferedVersion,
  type VersionSpec,
  type VersionSummary,
} from './model.js';
import type { DefinitionListQuery } from './query.js';
import type { DefinitionService, Publication, VersionReferences } from './service.js';
import type { DefinitionFilter } from './store.js';

/** How a block names its version: by uuid (v2-preview), or by definition and number (v1). */
export type VersionReference = { uuid: string } | { definitionUuid: string; versionNumber: number };

/** Admins who review publications; their releases reach the marketplace without a review. */
const REVIEWER = 'ADM_REVIEW_PUBLICATION';

/** A version as the caller reads it: whole for its owner, as offered for every other workspace. */
export type VersionAnswer = DefinitionVersion | OfferedVersion;

/**
 * Definitions as the caller sees them: its own workspace's (any state), every published one (the
 * marketplace: a released version an admin released or approved), all for admins; reviewers see every
 * released one. Versions: the own workspace's, and the published ones; drafts and versions in review
 * are invisible to other workspaces — also in a definition's `status`, so a consumer is only ever
 * offered a version it can order. The owner (`…DEFINITION_LIST` of the owning workspace) reads
 * versions whole and lists them; another workspace reads a published version as offered to it (its
 * inputs and outputs, for ordering) and gets 403 for the list (COMPAT §5).
 */
export class AuthorizedDefinitionService extends CallerView<Definition> {
  protected readonly kindName = 'meshBuildingBlockDefinition';

  constructor(
    private readonly inner: DefinitionService,
    private readonly runners: AuthorizedRunnerService,
    private readonly tags: AuthorizedTagDefinitionService,
    private readonly integrations: AuthorizedIntegrationService,
  ) {
    super();
  }

  /** The tag definitions of meshBuildingBlockDefinition applied to `metadata.tags`. */
  private async withTags(ctx: RequestContext, input: DefinitionInput, existing: Definition | undefined): Promise<DefinitionInput> {
    const admin = isAdminFor(ctx.principal, 'BUILDINGBLOCKDEFINITION', 'SAVE');
    const tags = await this.tags.enforce(
      ctx,
      'meshBuildingBlockDefinition',
      input.document.metadata.tags,
      existing ? (existing.document.metadata.tags ?? {}) : undefined,
      admin,
      'metadata.tags',
    );
    return { ...input, document: { ...input.document, metadata: placeTags(input.document.metadata, tags) } };
  }

  private static sees(principal: Principal, definition: Definition): boolean {
    return (
      seesWorkspace(principal, 'BUILDINGBLOCKDEFINITION', definition.ownedByWorkspace) ||
      isPublished(definition) ||
      (holdsCode(principal, REVIEWER) && latestReleased(definition.versions) !== undefined)
    );
  }

  private static seesVersion(principal: Principal, definition: Definition, version: Pick<VersionSummary, 'state' | 'review'>): boolean {
    if (seesWorkspace(principal, 'BUILDINGBLOCKDEFINITION', definition.ownedByWorkspace)) return true;
    if (version.state !== 'RELEASED') return false;
    return version.review === 'APPROVED' || holdsCode(principal, REVIEWER);
  }

  /** The definition with the versions the caller sees: its `status` offers no version the caller cannot order. */
  private static viewOf(principal: Principal, definition: Definition): Definition {
    if (seesWorkspace(principal, 'BUILDINGBLOCKDEFINITION', definition.ownedByWorkspace)) return definition;
    return {
      ...definition,
      versions: definition.versions.filter((version) => AuthorizedDefinitionService.seesVersion(principal, definition, version)),
    };
  }

  /** A release by a reviewer is published at once; a workspace's waits for one. */
  private static publication(ctx: RequestContext): Publication {
    return holdsCode(ctx.principal, REVIEWER) ? 'approved' : 'review';
  }

  /** May the caller read the definition's versions (and change them, with SAVE)? Its owner and admins. */
  private static owns(principal: Principal, definition: Pick<Definition, 'ownedByWorkspace'>): boolean {
    return isAllowed(principal, 'BUILDINGBLOCKDEFINITION', 'LIST', definition.ownedByWorkspace);
  }

  async find(ctx: RequestContext, uuid: string): Promise<Definition | undefined> {
    const definition = await this.inner.find(uuid);
    return definition && AuthorizedDefinitionService.sees(ctx.principal, definition)
      ? AuthorizedDefinitionService.viewOf(ctx.principal, definition)
      : undefined;
  }

  /** A version with its definition (as the caller sees it), when the caller sees both. */
  private async findVersion(
    ctx: RequestContext,
    uuid: string,
  ): Promise<{ definition: Definition; version: DefinitionVersion } | undefined> {
    const version = await this.inner.findVersion(uuid);
    const definition = version && (await this.inner.find(version.definitionUuid));
    if (
      !definition ||
      !AuthorizedDefinitionService.seesVersion(ctx.principal, definition, {
        state: version.spec.state,
        ...(version.review ? { review: version.review.state } : {}),
      })
    )
      return undefined;
    return { definition: AuthorizedDefinitionService.viewOf(ctx.principal, definition), version };
  }

  /**
   * The version a block names (by uuid, or by definition and number), with its definition: 422 naming
   * the field when the caller cannot see it — a draft of another workspace reads as absent.
   */
  async resolveVersion(
    ctx: RequestContext,
    reference: VersionReference,
    field: { uuid: string } | { definition: string; number: string },
  ): Promise<{ definition: Definition; version: DefinitionVersion }> {
    if ('uuid' in reference) {
      const found = await this.findVersion(ctx, reference.uuid);
      if (!found)
        throw unprocessable(`${(field as { uuid: string }).uuid}: meshBuildingBlockDefinitionVersion "${reference.uuid}" does not exist`);
      return found;
    }
    const fields = field as { definition: string; number: string };
    const definition = await this.resolve(ctx, reference.definitionUuid, fields.definition);
    const version = await this.inner.findVersionByNumber(definition.uuid, reference.versionNumber);
    if (!version || !definition.versions.some((seen) => seen.uuid === version.uuid)) {
      throw unprocessable(
        `${fields.number}: meshBuildingBlockDefinition "${reference.definitionUuid}" has no version ${reference.versionNumber}`,
      );
    }
    return { definition, version };
  }

  async list(ctx: RequestContext, query: DefinitionListQuery, page: PageRequest): Promise<Page<Definition>> {
    const { principal } = ctx;
    const { workspace, includeAllPublished } = query;
    let filter: DefinitionFilter;
    if (isAdminFor(principal, 'BUILDINGBLOCKDEFINITION', 'LIST'))
      filter = {
        ...(workspace ? { ownedBy: workspace } : {}),
        ...(workspace && includeAllPublished ? { published: 'also' as const } : {}),
      };
    else {
      const own = actsInWorkspace(principal) ? principal.workspace : undefined;
      const target = workspace ?? own;
      if (target === undefined) filter = { published: 'only' };
      else if (target === own)
        filter = { ownedBy: own, ...(workspace === undefined || includeAllPublished ? { published: 'also' as const } : {}) };
      else filter = includeAllPublished ? { published: 'only' } : { ownedBy: target, published: 'only' };
    }
    const { items, total } = await this.inner.list(filter, page);
    return { items: items.map((definition) => AuthorizedDefinitionService.viewOf(principal, definition)), total };
  }

  async create(ctx: RequestContext, input: DefinitionInput): Promise<Definition> {
    requireAllowed(ctx.principal, 'BUILDINGBLOCKDEFINITION', 'SAVE', input.ownedByWorkspace);
    return this.inner.create(ctx, await this.withTags(ctx, input, undefined));
  }

  /** The declarative import: the object names its uuid; create it, or update the existing one. */
  async save(ctx: RequestContext, input: DefinitionInput, uuid: string): Promise<{ definition: Definition; created: boolean }> {
    const existing = await this.inner.find(uuid);
    if (!existing) {
      requireAllowed(ctx.principal, 'BUILDINGBLOCKDEFINITION', 'SAVE', input.ownedByWorkspace);
      return { definition: await this.inner.create(ctx, await this.withTags(ctx, input, undefined), uuid.toLowerCase()), created: true };
    }
    return { definition: await this.update(ctx, existing.uuid, input), created: false };
  }

  async update(ctx: RequestContext, uuid: string, input: DefinitionInput, sentUuid?: string): Promise<Definition> {
    const existing = await this.get(ctx, uuid);
    if (sentUuid !== undefined && sentUuid.toLowerCase() !== existing.uuid)
      throw badRequest(`metadata.uuid: "${sentUuid}" does not match the definition ${uuid} of the path`);
    requireAllowed(ctx.principal, 'BUILDINGBLOCKDEFINITION', 'SAVE', existing.ownedByWorkspace);
    return this.inner.update(ctx, existing, await this.withTags(ctx, input, existing));
  }

  async delete(ctx: RequestContext, uuid: string): Promise<void> {
    const existing = await this.get(ctx, uuid);
    requireAllowed(ctx.principal, 'BUILDINGBLOCKDEFINITION', 'DELETE', existing.ownedByWorkspace);
    await this.inner.delete(ctx, existing);
  }

  /** The definition whose versions the caller asks for: 404 when invisible, 403 when not its owner. */
  private async ownedDefinition(ctx: RequestContext, uuid: string, field?: string): Promise<Definition> {
    const definition = field === undefined ? await this.get(ctx, uuid) : await this.resolve(ctx, uuid, field);
    if (!AuthorizedDefinitionService.owns(ctx.principal, definition))
      throw insufficientPermissions(`the versions of definition ${definition.uuid} are its workspace's`);
    return definition;
  }

  /** GET of one version: whole for the owner; a published one as offered to every other workspace. */
  async readVersion(ctx: RequestContext, uuid: string): Promise<VersionAnswer> {
    const found = await this.findVersion(ctx, uuid);
    if (!found) throw notFound(`meshBuildingBlockDefinitionVersion ${uuid} not found`);
    if (AuthorizedDefinitionService.owns(ctx.principal, found.definition)) return found.version;
    if (found.version.review?.state === 'APPROVED') return offeredVersion(found.version);
    throw insufficientPermissions(`the versions of definition ${found.definition.uuid} are its workspace's`);
  }

  /** A version the caller owns (to change it): 404 when invisible, 403 when not its owner. */
  private async ownedVersion(ctx: RequestContext, uuid: string): Promise<DefinitionVersion> {
    const found = await this.findVersion(ctx, uuid);
    if (!found) throw notFound(`meshBuildingBlockDefinitionVersion ${uuid} not found`);
    if (!AuthorizedDefinitionService.owns(ctx.principal, found.definition))
      throw insufficientPermissions(`the versions of definition ${found.definition.uuid} are its workspace's`);
    return found.version;
  }

  async listVersions(ctx: RequestContext, definitionUuid: string | undefined, page: PageRequest): Promise<Page<DefinitionVersion>> {
    const { principal } = ctx;
    if (definitionUuid !== undefined) {
      const definition = await this.ownedDefinition(ctx, definitionUuid);
      return this.inner.listVersions({ definitionUuid: definition.uuid }, page);
    }
    if (isAdminFor(principal, 'BUILDINGBLOCKDEFINITION', 'LIST')) return this.inner.listVersions({}, page);
    if (!actsInWorkspace(principal)) return emptyPage();
    return this.inner.listVersions({ ownedBy: principal.workspace }, page);
  }

  /**
   * What a version names, through the caller's view: its runner (which must also serve the
   * definition's workspace) and the definitions it depends on.
   */
  private async references(ctx: RequestContext, definition: Definition, spec: VersionSpec): Promise<VersionReferences> {
    for (const uuid of dependencyUuids(spec)) await this.resolve(ctx, uuid, 'spec.dependencyDefinitionRefs');
    // GitHub, GitLab and Azure DevOps versions name an integration of the definition's workspace.
    const type = spec.implementation.type;
    const integrationRef = (spec.implementation[type] as { integrationRef?: { uuid: string } } | undefined)?.integrationRef;
    if (integrationRef)
      await this.integrations.resolveFor(
        ctx,
        integrationRef.uuid,
        definition.ownedByWorkspace,
        `spec.implementation.${type}.integrationRef.uuid`,
      );
    if (!spec.runnerRef) return {};
    return { runner: await this.runners.resolveFor(ctx, spec.runnerRef.uuid, definition.ownedByWorkspace, 'spec.runnerRef.uuid') };
  }

  async createVersion(ctx: RequestContext, definitionUuid: string, spec: VersionSpec): Promise<DefinitionVersion> {
    const definition = await this.ownedDefinition(ctx, definitionUuid, 'spec.buildingBlockDefinitionRef.uuid');
    requireAllowed(ctx.principal, 'BUILDINGBLOCKDEFINITION', 'SAVE', definition.ownedByWorkspace);
    return this.inner.createVersion(ctx, definition, spec, await this.references(ctx, definition, spec));
  }

  async updateVersion(ctx: RequestContext, uuid: string, definitionUuid: string, spec: VersionSpec): Promise<DefinitionVersion> {
    const existing = await this.ownedVersion(ctx, uuid);
    if (definitionUuid !== existing.definitionUuid)
      throw badRequest('spec.buildingBlockDefinitionRef.uuid: a version cannot move to another definition');
    requireAllowed(ctx.principal, 'BUILDINGBLOCKDEFINITION', 'SAVE', existing.ownedByWorkspace);
    const definition = (await this.inner.find(existing.definitionUuid))!;
    return this.inner.updateVersion(
      ctx,
      existing,
      spec,
      await this.references(ctx, definition, spec),
      AuthorizedDefinitionService.publication(ctx),
    );
  }

  /** An admin's publication review of a released version (`ADM_REVIEW_PUBLICATION`). */
  async reviewVersion(ctx: RequestContext, uuid: string, decision: 'APPROVED' | 'REJECTED', reason?: string): Promise<DefinitionVersion> {
    if (!holdsCode(ctx.principal, REVIEWER)) throw insufficientPermissions(`reviewing a publication needs ${REVIEWER}`);
    const found = await this.findVersion(ctx, uuid);
    if (!found) throw notFound(`meshBuildingBlockDefinitionVersion ${uuid} not found`);
    return this.inner.review(ctx, found.version, decision, reason);
  }

  /**
   * The declarative import of a version, identified by definition and version number: an existing one
   * is PUT; a new one is created as a draft and, when the object says RELEASED, released.
   */
  async saveVersion(
    ctx: RequestContext,
    definitionUuid: string,
    spec: VersionSpec,
  ): Promise<{ version: DefinitionVersion; created: boolean }> {
    const definition = await this.ownedDefinition(ctx, definitionUuid, 'spec.buildingBlockDefinitionRef.uuid');
    requireAllowed(ctx.principal, 'BUILDINGBLOCKDEFINITION', 'SAVE', definition.ownedByWorkspace);
    const references = await this.references(ctx, definition, spec);
    const existing = await this.inner.findVersionByNumber(definition.uuid, spec.versionNumber);
    const publication = AuthorizedDefinitionService.publication(ctx);
    if (existing) return { version: await this.inner.updateVersion(ctx, existing, spec, references, publication), created: false };
    const draft = await this.inner.createVersion(ctx, definition, { ...spec, state: 'DRAFT' }, references);
    return {
      version: spec.state === 'RELEASED' ? await this.inner.updateVersion(ctx, draft, spec, references, publication) : draft,
      created: true,
    };
  }
}
