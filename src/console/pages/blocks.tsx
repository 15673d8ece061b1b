import { useState } from 'preact/hooks';
import { MEDIA, PATHS, query, type Json, type Session } from '../api.js';
import { LIVE_LABELS, subjectOfData, useLiveChanges } from '../live.js';
import { Badge, formatTime, Page, Show, useLoad } from '../ui.js';

const STATUSES = [
  'WAITING_FOR_DEPENDENT_INPUT',
  'WAITING_FOR_OPERATOR_INPUT',
  'WAITING_FOR_USER_INPUT',
  'PENDING',
  'IN_PROGRESS',
  'SUCCEEDED',
  'FAILED',
  'ABORTED',
];

export const targetOf = (block: Json) =>
  block.spec.targetRef?.kind === 'meshTenant'
    ? `tenant ${block.spec.targetRef.uuid}`
    : `workspace ${block.spec.targetRef?.identifier ?? block.spec.targetRef?.name ?? block.metadata.ownedByWorkspace}`;

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

const PAGE_SIZE = 20;
/** The API lists oldest first; the console reads it backwards in chunks this large. */
const CHUNK = 100;
/** A name search looks through at most this many of the newest blocks (narrow by workspace beyond). */
const SEARCH_LIMIT = 2000;

interface NewestPage {
  items: Json[];
  /** How many match, when every block was looked at; undefined when the search stopped early. */
  total: number | undefined;
  hasMore: boolean;
}

/**
 * One page of the blocks matching the list's filters, newest first, whose name contains `needle`:
 * the API pages oldest first, so its last pages are read backwards until this page is full.
 */
async function newestFirst(session: Session, filterQuery: Record<string, string>, needle: string, page: number): Promise<NewestPage> {
  const url = (params: Record<string, string | number>) => `${PATHS.blocks}${query({ ...filterQuery, ...params })}`;
  const count = (await session.list<Json>(url({ size: 1, page: 0 }), MEDIA.block, 'meshBuildingBlocks')).page.totalElements;
  const wanted = (page + 1) * PAGE_SIZE + 1;
  const found: Json[] = [];
  const seen = new Set<string>();
  let looked = 0;
  for (let chunk = Math.ceil(count / CHUNK) - 1; chunk >= 0 && found.length < wanted && looked < SEARCH_LIMIT; chunk--) {
    const { items } = await session.list<Json>(url({ size: CHUNK, page: chunk }), MEDIA.block, 'meshBuildingBlocks');
    looked += items.length;
    // A block created meanwhile shifts the pages: one seen already is not listed twice.
    for (const block of items.reverse()) {
      if (seen.has(block.metadata.uuid)) continue;
      seen.add(block.metadata.uuid);
      if (!needle || String(block.spec.displayName).toLowerCase().includes(needle)) found.push(block);
    }
  }
  const complete = found.length < wanted && looked >= count;
  return {
    items: found.slice(page * PAGE_SIZE, (page + 1) * PAGE_SIZE),
    total: complete ? found.length : needle ? undefined : count,
    hasMore: found.length > (page + 1) * PAGE_SIZE,
  };
}

export function BlocksPage({ session }: { session: Session }) {
  const [filters, setFilters] = useState({ workspaceIdentifier: '', projectIdentifier: '', status: '', definitionUuid: '' });
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(0);
  const needle = search.trim().toLowerCase();
  const definitions = useLoad(
    () =>
      session.all<Json>(`${PATHS.definitions}?includeAllPublished=true`, MEDIA.definition, 'meshBuildingBlockDefinitions').catch(() => []),
    [],
  );
  const blocks = useLoad(() => newestFirst(session, filters, needle, page), [JSON.stringify(filters), needle, page]);
  const live = useLiveChanges(session, (data) => subjectOfData(data).blockUuid !== undefined, blocks.reload);
  const set = (name: keyof typeof filters) => (event: Event) => {
    setFilters({ ...filters, [name]: (event.currentTarget as HTMLInputElement).value });
    setPage(0);
  };
  return (
    <Page title="Building blocks">
      <p class="live" role="status">
        {LIVE_LABELS[live]}
      </p>
      <form class="filters" onSubmit={(event) => event.preventDefault()} aria-label="Filter building blocks">
        <div>
          <label for="filter-name">Name contains</label>
          <input
            id="filter-name"
            type="search"
            value={search}
            onInput={(event) => {
              setSearch(event.currentTarget.value);
              setPage(0);
            }}
          />
        </div>
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
            <NewestPager page={page} result={result} onPage={setPage} />
          </>
        )}
      </Show>
    </Page>
  );
}

function NewestPager({ page, result, onPage }: { page: number; result: NewestPage; onPage(n: number): void }) {
  const count = result.total === undefined ? 'newest first' : `${result.total} in total, newest first`;
  if (page === 0 && !result.hasMore) return <p class="muted">{count}</p>;
  return (
    <nav class="pager" aria-label="Pages">
      <button type="button" disabled={page === 0} onClick={() => onPage(page - 1)}>
        Newer
      </button>
      <span>
        Page {page + 1} ({count})
      </span>
      <button type="button" disabled={!result.hasMore} onClick={() => onPage(page + 1)}>
        Older
      </button>
    </nav>
  );
}
