import type { RequestContext } from '../../auth/context.js';
import { AuthorizedCrudService } from '../crud/authorized-service.js';
import type { CrudService } from '../crud/service.js';
import type { TagDefinition, TagDefinitionInput, Tags, TagTargetKind } from './model.js';
import { enforceTags } from './rules.js';
import { TAG_DEFINITION_ACCESS } from './strategy.js';

/** Tag definitions as callers reach them (TAG_DEFINITION_ACCESS), and the tags other kinds' writes may store. */
export class AuthorizedTagDefinitionService extends AuthorizedCrudService<TagDefinition, TagDefinitionInput> {
  constructor(inner: CrudService<TagDefinition, TagDefinitionInput>) {
    super(inner, TAG_DEFINITION_ACCESS, { kind: 'meshTagDefinition', noun: 'tag definition', idOfInput: (input) => input.name });
  }

  /**
   * The tags a write of a `targetKind` object may store (defaults applied on create), or 400 naming
   * the tag. `previous`: the object's tags before an update (undefined on create). `admin`: whether
   * the caller is an admin of the kind (restricted tags are set only by admins).
   */
  async enforce(
    _ctx: RequestContext,
    targetKind: TagTargetKind,
    sent: unknown,
    previous: unknown,
    admin: boolean,
    field = 'spec.tags',
  ): Promise<Tags> {
    // One query (index `tag_definitions_target`).
    const definitions = await this.inner.select({ target_kind: targetKind }, ['tag_key']);
    return enforceTags(definitions, sent as Tags | undefined, previous as Tags | undefined, {
      admin,
      field,
      creating: previous === undefined,
    });
  }
}
