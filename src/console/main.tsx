import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import type { Session } from './api.js';
import { BlockPage } from './pages/block.js';
import { BlocksPage } from './pages/blocks.js';
import { DefinitionPage } from './pages/definition.js';
import { EventsPage } from './pages/events.js';
import { KeysPage } from './pages/keys.js';
import { MarketplacePage } from './pages/marketplace.js';
import { OrderPage } from './pages/order.js';
import { PlatformSection } from './pages/platform.js';
import { ReviewsPage } from './pages/reviews.js';
import { RunnersPage } from './pages/runners.js';
import { SignInPage } from './pages/sign-in.js';

/** The current hash route, split into its segments (`#/blocks/<uuid>` → ['blocks', '<uuid>']). */
function useRoute(): string[] {
  const parse = () => window.location.hash.replace(/^#\/?/, '').split('/').filter(Boolean).map(decodeURIComponent);
  const [route, setRoute] = useState(parse);
  useEffect(() => {
    const onChange = () => setRoute(parse());
    window.addEventListener('hashchange', onChange);
    return () => window.removeEventListener('hashchange', onChange);
  }, []);
  return route;
}

/** Each section with the relation its page lists: shown only when the meshObjects index offers it. */
const NAVIGATION = [
  { route: 'marketplace', label: 'Marketplace', relation: 'meshbuildingblockdefinitions' },
  { route: 'blocks', label: 'Blocks', relation: 'meshbuildingblocks' },
  { route: 'platform', label: 'Platform', relation: 'meshbuildingblockdefinitions' },
  { route: 'runners', label: 'Runners', relation: 'meshbuildingblockrunners' },
  { route: 'reviews', label: 'Reviews', relation: 'meshbuildingblockdefinitions', admin: true },
  { route: 'keys', label: 'API keys', relation: 'meshapikeys' },
  { route: 'events', label: 'Event log', relation: 'mesheventlogs' },
];

function Content({ session, route }: { session: Session; route: string[] }) {
  const [section, id, sub] = route;
  switch (section) {
    case 'marketplace':
      return id ? <DefinitionPage session={session} uuid={id} /> : <MarketplacePage session={session} />;
    case 'order':
      return <OrderPage session={session} definitionUuid={id!} versionUuid={sub} />;
    case 'blocks':
      return id ? <BlockPage session={session} uuid={id} /> : <BlocksPage session={session} />;
    case 'platform':
      return <PlatformSection session={session} id={id} sub={sub} />;
    case 'runners':
      return <RunnersPage session={session} />;
    case 'reviews':
      return <ReviewsPage session={session} />;
    case 'keys':
      return <KeysPage session={session} />;
    case 'events':
      return <EventsPage session={session} />;
    default:
      return <MarketplacePage session={session} />;
  }
}

function App() {
  const [session, setSession] = useState<Session>();
  const route = useRoute();
  if (!session) return <SignInPage onSignedIn={setSession} />;
  // A person's session ends on the server before the sign-in page shows (which would find it otherwise).
  const signOut = () =>
    void session.signOut().finally(() => {
      setSession(undefined);
      window.location.hash = '';
    });
  // The page reloads in the new workspace: every view asks again as the person acting there.
  const switchWorkspace = (workspace: string) => void session.switchWorkspace(workspace).finally(() => window.location.reload());
  const current = route[0] ?? 'marketplace';
  const { identity } = session;
  return (
    <>
      <a class="skip" href="#main" onClick={(event) => (event.preventDefault(), document.getElementById('main')?.focus())}>
        Skip to content
      </a>
      <header class="top">
        <span class="brand">Blockyard</span>
        <nav aria-label="Sections">
          <ul>
            {NAVIGATION.filter((item) => session.relations.has(item.relation) && (!item.admin || identity.admin)).map((item) => (
              <li key={item.route}>
                <a
                  href={`#/${item.route}`}
                  aria-current={current === item.route || (current === 'order' && item.route === 'marketplace') ? 'page' : undefined}
                >
                  {item.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <div class="who">
          <span data-testid="identity">
            {identity.type === 'apiUser' ? 'API user' : identity.type === 'person' ? 'Signed in as' : 'API key'}{' '}
            <strong>{identity.name}</strong>
            {identity.workspace && (identity.workspaces?.length ?? 0) <= 1 ? ` in ${identity.workspace}` : ''}
          </span>
          {identity.workspaces && identity.workspaces.length > 1 ? (
            <label class="inline">
              Workspace{' '}
              <select value={identity.workspace ?? ''} onChange={(event) => switchWorkspace(event.currentTarget.value)}>
                {identity.workspace ? null : <option value="">Choose</option>}
                {identity.workspaces.map((name) => (
                  <option key={name} value={name}>
                    {name}
                  </option>
                ))}
              </select>
            </label>
          ) : null}
          <button type="button" onClick={signOut}>
            Sign out
          </button>
        </div>
      </header>
      <main id="main" tabIndex={-1}>
        <Content session={session} route={route} />
      </main>
    </>
  );
}

// The page's static loading message goes; Preact renders into an empty root.
const root = document.getElementById('app')!;
root.replaceChildren();
render(<App />, root);
