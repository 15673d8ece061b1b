import { useState } from 'preact/hooks';
import { MEDIA, PATHS, type Json, type Session } from '../api.js';
import { Page, Show, useLoad } from '../ui.js';

/** Released definitions the caller may order: published ones, and its own workspace's released ones. */
export function orderable(definition: Json, workspace: string | undefined): boolean {
  if (!(definition.status?.latestReleasedVersion > 0)) return false;
  return definition.status.publicationState === 'PUBLISHED' || definition.metadata.ownedByWorkspace === workspace;
}

export function DefinitionSymbol({ definition }: { definition: Json }) {
  const symbol = definition.spec?.symbol;
  // Only data URIs are shown: the Content-Security-Policy allows no other image source.
  return typeof symbol === 'string' && symbol.startsWith('data:image/') ? (
    <img class="symbol" src={symbol} alt="" width={40} height={40} />
  ) : (
    <span class="symbol" aria-hidden="true" />
  );
}

export function MarketplacePage({ session }: { session: Session }) {
  const [search, setSearch] = useState('');
  const definitions = useLoad(
    () => session.all<Json>(`${PATHS.definitions}?includeAllPublished=true`, MEDIA.definition, 'meshBuildingBlockDefinitions'),
    [],
  );
  const needle = search.trim().toLowerCase();
  return (
    <Page title="Marketplace">
      <p class="muted">Building blocks you can order, newest first. Open one to read about it and order it.</p>
      <label for="market-search">Search</label>
      <input
        id="market-search"
        type="search"
        value={search}
        placeholder="Name or description"
        onInput={(event) => setSearch(event.currentTarget.value)}
      />
      <Show loaded={definitions}>
        {(all) => {
          const shown = all
            .filter((d) => orderable(d, session.identity.workspace))
            .filter((d) => !needle || `${d.spec.displayName} ${d.spec.description}`.toLowerCase().includes(needle))
            .sort((a, b) => String(b.metadata.createdOn).localeCompare(String(a.metadata.createdOn)));
          if (shown.length === 0)
            return <p class="empty">{needle ? 'No building block matches your search.' : 'No building block is offered to you yet.'}</p>;
          return (
            <ul class="cards">
              {shown.map((definition) => (
                <li key={definition.metadata.uuid} class="card">
                  <DefinitionSymbol definition={definition} />
                  <div>
                    <h2>
                      <a href={`#/marketplace/${definition.metadata.uuid}`}>{definition.spec.displayName}</a>
                    </h2>
                    <p>{definition.spec.description}</p>
                    <p class="muted">
                      by {definition.metadata.ownedByWorkspace} ·{' '}
                      {definition.spec.targetType === 'TENANT_LEVEL' ? 'for tenants' : 'for workspaces'} · version{' '}
                      {definition.status.latestReleasedVersion}
                    </p>
                  </div>
                </li>
              ))}
            </ul>
          );
        }}
      </Show>
    </Page>
  );
}
