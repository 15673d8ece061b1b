import { useState } from 'preact/hooks';
import { MEDIA, PATHS, query, type Json, type Session } from '../api.js';
import { useLiveChanges } from '../live.js';
import { Badge, formatTime, Page, Pager, Show, useLoad } from '../ui.js';

const STATUSES = ['WAITING_FOR_DEPENDENT_INPUT', 'WAITING_FOR_OPERATOR_INPUT', 'WAITING_FOR_USER_INPUT', 'PENDING', 'IN_PROGRESS', 'SUCCEEDED', 'FAILED', 'ABORTED'];

export const targetOf = (block: Json) => (block.spec.targetRef?.kind === 'meshTenant' ? `tenant ${block.spec.targetRef.uuid}` : `workspace ${block.spec.targetRef?.identifier ?? block.spec.targetRef?.name ?? block.metadata.ownedByWorkspace}`);

/** A table of blocks with links to their pages. */
export function BlockTable({ blocks }: { blocks: Json[] }) {
  if (blocks.length === 0) return <p class="empty">No building blocks.</p>;
  return (
    <div class="table-wrap" tabIndex={0} role="region" aria-label="Building blocks (scrolls sideways)">
      <table>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Status</th>
            <th scope="col">Workspace</th>
            <th scope="col">Created</th>
          </tr>
        </thead>
        <tbody>
          {blocks.map((block) => (
            <tr key={block.metadata.uuid}>
              <td>
                <a href={`#/blocks/${block.metadata.uuid}`}>{block.spec.displayName}</a>
              </td>
              <td>
                <Badge value={block.status.status} />
                {block.metadata.markedForDeletionOn ? <span class="muted"> being deleted</span> : null}
              </td>
              <td>{block.metadata.ownedByWorkspace}</td>
              <td>{formatTime(block.metadata.createdOn)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function BlocksPage({ session }: { session: Session }) {
  const [filters, setFilters] = useState({ workspaceIdentifier: '', projectIdentifier: '', status: '', definitionUuid: '' });
  const [page, setPage] = useState(0);
  const definitions = useLoad(() => session.all<Json>(`${PATHS.definitions}?includeAllPublished=true`, MEDIA.definition, 'meshBuildingBlockDefinitions').catch(() => []), []);
  const blocks = useLoad(() => session.list<Json>(`${PATHS.blocks}${query({ ...filters, page, size: 20 })}`, MEDIA.block, 'meshBuildingBlocks'), [JSON.stringify(filters), page]);
  useLiveChanges(session, (data) => data.includes('"meshBuildingBlock"'), blocks.reload);
  const set = (name: keyof typeof filters) => (event: Event) => {
    setFilters({ ...filters, [name]: (event.currentTarget as HTMLInputElement).value });
    setPage(0);
  };
  return (
    <Page title="Building blocks">
      <form class="filters" onSubmit={(event) => event.preventDefault()} aria-label="Filter building blocks">
        <div>
          <label for="filter-workspace">Workspace</label>
          <input id="filter-workspace" value={filters.workspaceIdentifier} onChange={set('workspaceIdentifier')} />
        </div>
        <div>
          <label for="filter-project">Project</label>
          <input id="filter-project" value={filters.projectIdentifier} onChange={set('projectIdentifier')} />
        </div>
        <div>
          <label for="filter-status">Status</label>
          <select id="filter-status" value={filters.status} onChange={set('status')}>
            <option value="">Any</option>
            {STATUSES.map((status) => (
              <option key={status} value={status}>
                {status.replaceAll('_', ' ')}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label for="filter-definition">Definition</label>
          <select id="filter-definition" value={filters.definitionUuid} onChange={set('definitionUuid')}>
            <option value="">Any</option>
            {(definitions.data ?? []).map((definition) => (
              <option key={definition.metadata.uuid} value={definition.metadata.uuid}>
                {definition.spec.displayName}
              </option>
            ))}
          </select>
        </div>
      </form>
      <Show loaded={blocks}>
        {(result) => (
          <>
            <BlockTable blocks={result.items} />
            <Pager page={result.page} onPage={setPage} />
          </>
        )}
      </Show>
    </Page>
  );
}
