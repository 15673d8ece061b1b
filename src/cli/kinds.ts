import { formatMediaType, type VersionRef } from '../lib/media-types.js';
import { REST_VERSIONS } from '../lifecycle.js';
import type { CliColumn, KindManifest, KindResource } from '../kinds/manifest.js';
import { KINDS } from '../kinds/registry.js';

export type Column = CliColumn;

/** A kind as `blockyard get|delete` names it: where it lives, which representation to ask for, what a table shows. */
export interface CliKind {
  /** The wire `kind`, e.g. `meshBuildingBlock`. */
  kind: string;
  /** What people type: the plural (`buildingblocks`), the singular and short names (`bb`). */
  names: readonly string[];
  /** Also taken: the wire kind's names (`meshbuildingblocks`, `meshbuildingblock`), as the API spells them. */
  wireNames: readonly string[];
  path: string;
  /** The Accept header: the newest version the server serves that is not deprecated. */
  accept: string;
  /** The list filters `--filter` takes: the index relation's template variables and `extraFilters`. */
  filters: readonly string[];
  columns: readonly Column[];
  wide: readonly Column[];
}

const VENDOR = 'vendor';

/** The version to ask for: the registry's first that the lifecycle list does not deprecate (the first when all are). */
function preferred(media: readonly VersionRef[]): VersionRef {
  return media.find((ref) => REST_VERSIONS.of(ref) === undefined) ?? media[0]!;
}

/** A collection as the CLI names it: the wire kind names it, its codecs' versions choose the media type, its index relation lists its filters. */
function cliKind({ codecs, path, index = [], cli = {} }: KindResource): CliKind {
  const singular = codecs.kind.replace(/^mesh/, '').toLowerCase();
  const accepted = preferred(codecs.media);
  const variables = typeof index === 'string' ? [...index.matchAll(/[{,&?]([A-Za-z]+)(?=[,}])/g)].map((match) => match[1]!) : index;
  return {
    kind: codecs.kind,
    names: [`${singular}s`, singular, ...(cli.aliases ?? [])],
    wireNames: [`${codecs.kind.toLowerCase()}s`, codecs.kind.toLowerCase()],
    path,
    accept: formatMediaType(VENDOR, accepted.kind, accepted.version),
    filters: [...new Set([...variables, ...(cli.extraFilters ?? [])])],
    columns: cli.columns ?? [],
    wide: cli.wide ?? [],
  };
}

/** The collections some kinds offer to the CLI (`cli` in their manifests), in their order. */
export const cliKindsOf = (manifests: readonly KindManifest[]): CliKind[] =>
  manifests.flatMap((kind) => kind.resources.filter((resource) => resource.cli).map(cliKind));

/** Every collection the registry's kinds offer to the CLI. */
export const CLI_KINDS: readonly CliKind[] = cliKindsOf(KINDS);

/** The kind a name stands for (case-insensitive), or undefined. */
export function kindNamed(name: string, kinds: readonly CliKind[] = CLI_KINDS): CliKind | undefined {
  const wanted = name.toLowerCase();
  return kinds.find((kind) => kind.names.includes(wanted) || kind.wireNames.includes(wanted));
}

/** The edits (insert, delete, replace, swap two neighbours) from `a` to `b`. */
function distance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]![b.length]!;
}

/** The kind name nearest to a misspelt one (a third of its letters wrong at most), or undefined. */
export function nearestKindName(name: string, kinds: readonly CliKind[] = CLI_KINDS): string | undefined {
  const wanted = name.toLowerCase();
  let best: { name: string; distance: number } | undefined;
  for (const candidate of kinds.flatMap((kind) => [...kind.names, ...kind.wireNames])) {
    const d = distance(wanted, candidate);
    if (best === undefined || d < best.distance) best = { name: candidate, distance: d };
  }
  return best && best.distance <= Math.max(1, Math.floor(wanted.length / 3)) ? best.name : undefined;
}
