import type { BuiltKind, KindContext, KindManifest, KindName } from './manifest.js';
import type { AuthorizedServices, PlainServices } from './services.js';

/** What every kind is made with; `plain` and `authorized` are added here. */
export type KindInfrastructure = Omit<KindContext, 'plain' | 'authorized'>;

/**
 * The service graph of some kinds: each manifest's `build` runs once, when the first kind asks for it
 * (or at the end, for kinds nobody asked for), so the manifests' order does not matter and a kind
 * names only the kinds it uses. A kind that needs itself, through others, is a programming error.
 */
export function buildKinds(
  manifests: readonly KindManifest[],
  infrastructure: KindInfrastructure,
): { authorized: AuthorizedServices; plain: PlainServices } {
  const byName = new Map<string, KindManifest>(manifests.map((manifest) => [manifest.name, manifest]));
  const built = new Map<string, BuiltKind<KindName>>();
  const building: string[] = [];

  const make = (name: string): BuiltKind<KindName> => {
    const done = built.get(name);
    if (done) return done;
    const manifest = byName.get(name);
    if (!manifest) throw new Error(`no kind ${name} is registered`);
    if (building.includes(name)) throw new Error(`the kinds ${[...building, name].join(' → ')} need each other to be made`);
    building.push(name);
    const kind = manifest.build(context) as BuiltKind<KindName>;
    building.pop();
    built.set(name, kind);
    return kind;
  };
  const context: KindContext = {
    ...infrastructure,
    plain: (name) => {
      const plain = make(name).plain;
      if (plain === undefined) throw new Error(`the kind ${name} has no plain service`);
      return plain as never;
    },
    authorized: (name) => make(name).authorized as never,
  };

  for (const manifest of manifests) make(manifest.name);
  const entries = [...built.entries()];
  return {
    authorized: Object.fromEntries(entries.map(([name, kind]) => [name, kind.authorized])) as unknown as AuthorizedServices,
    plain: Object.fromEntries(
      entries.filter(([, kind]) => kind.plain !== undefined).map(([name, kind]) => [name, kind.plain]),
    ) as unknown as PlainServices,
  };
}
