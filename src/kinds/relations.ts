import type { CollectionPermissions } from '../auth/route-access.js';
import type { HalLinks } from '../lib/hal.js';
import type { RelationsView } from './codec.js';
import type { KindManifest } from './manifest.js';
import { objectUrl } from './paths.js';

/**
 * The meshObjects index (spec §2.3): relation, path and the exact query variables of each templated
 * link. Every link into a relation, from the index or from an object's answer, is drawn here, under
 * one rule: the permission of the relation's route (its access rule in the route table, declared once
 * where the route is), asked through CollectionPermissions.
 */
export interface Relation {
  rel: string;
  path: string;
  /** RFC 6570 template appended to the path; "" for a plain link. */
  template: string;
}

/** `{?a,b}`: the query template of an index relation's variables ("" for none). */
const queryTemplate = (variables: readonly string[]) => (variables.length ? `{?${variables.join(',')}}` : '');

/** The index relations of some kinds, in their order (the registry's). */
export function relationsOf(manifests: readonly KindManifest[]): Relation[] {
  return manifests.flatMap((manifest) =>
    manifest.resources.flatMap(({ index, path, codecs }) =>
      index === undefined
        ? []
        : [{ rel: `${codecs.kind.toLowerCase()}s`, path, template: typeof index === 'string' ? index : queryTemplate(index) }],
    ),
  );
}

/**
 * The index's links: a relation is listed when the caller may use its endpoint (spec §2.2), to list
 * or to create in it (a runner's claim is the runs relation's POST). Paths that only answer for
 * retired versions (http/retired-paths.ts) are not served, so never listed.
 */
export function indexLinks(relations: readonly Relation[], collections: CollectionPermissions, baseUrl: string): HalLinks {
  const links: HalLinks = {};
  for (const { rel, path, template } of relations) {
    if (!collections.mayList(path) && !collections.mayCreate(path)) continue;
    links[rel] = template === '' ? { href: `${baseUrl}${path}` } : { href: `${baseUrl}${path}${template}`, templated: true };
  }
  return links;
}

/**
 * Where a link from an object's answer leads: the collection of a relation filtered to the object
 * (`query`, e.g. `?workspaceIdentifier=dev`), or one object of it (`id`). `workspace` is where those
 * objects live; absent when they live in no one workspace (users, platforms) or in many (a
 * definition's blocks).
 */
export type Related = { rel: string; workspace?: string } & ({ query: string } | { id: string });

/**
 * The links from an object's answer to related collections and objects (not `self`, not links to the
 * object's own parts), each only when the caller may follow it: may list the relation's collection
 * in `workspace`. Reading one object takes the rule of listing its collection (kinds/resource.ts
 * gives both routes the same access), so one question answers both kinds of link.
 */
export function relatedLinks(view: RelationsView, related: Readonly<Record<string, Related | undefined>>): HalLinks {
  const links: HalLinks = {};
  for (const [name, target] of Object.entries(related)) {
    if (target === undefined) continue;
    // A relation this server does not serve has no link.
    const path = view.collections.pathOf(target.rel);
    if (path === undefined || !view.collections.mayList(path, target.workspace)) continue;
    links[name] = { href: 'id' in target ? objectUrl(view.baseUrl, path, target.id) : `${view.baseUrl}${path}${target.query}` };
  }
  return links;
}
