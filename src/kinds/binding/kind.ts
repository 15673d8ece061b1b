import { isCollectedKind, requireHoldable } from '../collection/model.js';
import { rawField } from '../importable.js';
import { column, type ImportableKind, type KindManifest, type KindResource, deprecated } from '../manifest.js';
import { AuthorizedBindingService } from './authorized-service.js';
import { BINDING_TITLES } from './events.js';
import { BINDING_KINDS, BINDING_SHAPES, type BindingInput, type BindingKind } from './model.js';
import { bindingOperations } from './routes.js';
import { BindingService, deleteCollectedBinding } from './service.js';
import { BindingStore } from './store.js';
import { BINDING_CODECS, IMPORT_ONLY_BINDING_CODECS } from './wire/index.js';

declare module '../services.js' {
  interface AuthorizedServices {
    /** One per binding kind. */
    bindings: Record<BindingKind, AuthorizedBindingService>;
  }
}

const isBindingKind = (kind: string): kind is BindingKind => (Object.values(BINDING_KINDS) as string[]).includes(kind);

const CLI = { columns: [column('ROLE', 'roleRef.name'), column('TARGET', 'targetRef.name'), column('SUBJECT', 'subject.name')] };
const PROJECT_TEMPLATE = '?workspaceIdentifier={workspaceIdentifier}&projectIdentifier={projectIdentifier}';
const resource = (kind: BindingKind, index: KindResource['index']): KindResource => ({
  path: BINDING_SHAPES[kind].path,
  codecs: { kind, media: [BINDING_CODECS[kind].media] },
  index,
  cli: CLI,
});

/** A binding the import takes: the REST version and the older `subjects[]` forms; each subject is one binding. */
function importableBinding(service: AuthorizedBindingService): ImportableKind<BindingInput[]> {
  const codecs = [BINDING_CODECS[service.kind], ...IMPORT_ONLY_BINDING_CODECS[service.kind]];
  return {
    kind: service.kind,
    versions: codecs.map((codec) => codec.media.version),
    name: (object) => {
      const named = rawField(object, 'metadata', 'name');
      if (typeof named === 'string') return named;
      const target = object.targetRef as { name?: unknown; ownedByWorkspace?: unknown } | undefined;
      return [target?.ownedByWorkspace, target?.name].filter((part) => typeof part === 'string').join('.') || '?';
    },
    decode: (object, version) => codecs.find((codec) => codec.media.version === version)!.decodeAll(object),
    save: async (ctx, inputs, collection) => {
      const collected = isCollectedKind(service.kind) ? collection : undefined;
      if (collected)
        for (const input of inputs) requireHoldable(collected, service.kind, input.workspace, `${service.kind}[${input.name}]`);
      const saved = [];
      for (const input of inputs) saved.push(await service.save(ctx, input, collected?.name));
      return { name: saved.map((s) => s.binding.name).join(','), created: saved.some((s) => s.created) };
    },
  };
}

export const bindingKind: KindManifest<'bindings'> = {
  name: 'bindings',
  resources: [
    resource(BINDING_KINDS.projectGroup, PROJECT_TEMPLATE),
    resource(BINDING_KINDS.projectUser, PROJECT_TEMPLATE),
    resource(BINDING_KINDS.workspaceUser, ['username', 'workspaceRole', 'workspaceIdentifier']),
    resource(BINDING_KINDS.workspaceGroup, ['username', 'workspaceRole']),
  ],
  events: BINDING_TITLES,
  importLifecycle: [
    deprecated('meshProjectUserBinding.v1', 'v3', { endOfLife: '2025-07-01' }),
    deprecated('meshProjectGroupBinding.v1', 'v3', { endOfLife: '2025-07-01' }),
    deprecated('meshWorkspaceGroupBinding.v1', 'v2', { endOfLife: '2025-07-01' }),
    deprecated('meshWorkspaceUserBinding.v1', 'v2'),
    deprecated('meshProjectUserBinding.v2', 'v3'),
    deprecated('meshProjectGroupBinding.v2', 'v3'),
  ],
  references: [
    { to: 'workspace', kind: 'role bindings', table: 'role_bindings', columns: ['workspace'] },
    { to: 'project', kind: 'project bindings', table: 'role_bindings', columns: ['workspace', 'project'] },
    { to: 'projectRole', kind: 'project bindings', table: 'role_bindings', columns: ['project_role'] },
    // A user's and a group's bindings go with them.
    {
      to: 'user',
      kind: 'role bindings',
      table: 'role_bindings',
      columns: ['username'],
      onDelete: 'cascade',
      cascade: (trx, [username]) => new BindingStore(trx).deleteOfUser(username!),
    },
    {
      to: 'userGroup',
      kind: 'role bindings',
      table: 'role_bindings',
      columns: ['workspace', 'group_name'],
      onDelete: 'cascade',
      cascade: (trx, [workspace, group]) => new BindingStore(trx).deleteOfGroup(workspace!, group!),
    },
    {
      to: 'collection',
      kind: 'workspace bindings',
      table: 'role_bindings',
      columns: ['collection'],
      deleteHeld: async (trx, { kind, name }, events) => {
        if (isBindingKind(kind)) await deleteCollectedBinding(trx, { kind, name }, events);
      },
    },
  ],
  build(context) {
    const plain = new BindingService(context.db, context.plain('workspaces'), context.plain('projects'), context.recorder);
    const [users, userGroups, projectRoles] = [
      context.authorized('users'),
      context.authorized('userGroups'),
      context.authorized('projectRoles'),
    ];
    const binding = (kind: BindingKind) => new AuthorizedBindingService(kind, plain, users, userGroups, projectRoles);
    return {
      authorized: {
        meshWorkspaceUserBinding: binding(BINDING_KINDS.workspaceUser),
        meshWorkspaceGroupBinding: binding(BINDING_KINDS.workspaceGroup),
        meshProjectUserBinding: binding(BINDING_KINDS.projectUser),
        meshProjectGroupBinding: binding(BINDING_KINDS.projectGroup),
      },
    };
  },
  operations: (services) => Object.values(services.bindings).flatMap((bindings) => bindingOperations(bindings)),
  importable: (services) => Object.values(services.bindings).map(importableBinding),
};
