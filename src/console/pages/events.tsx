import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { MEDIA, PATHS, query, type Json, type Page as ListPage, type Session } from '../api.js';
import { LIVE_LABELS, subjectOf, useLiveChanges } from '../live.js';
import { formatTime, Page, Pager, Show, useLoad } from '../ui.js';

const EVENT_TYPES = ['Added', 'Approved', 'Cancelled', 'Changed', 'Created', 'Deleted', 'Rejected', 'Removed', 'Requested'];
const AUTHOR_TYPES = ['ApiKey', 'ApiUser', 'System', 'User'];

/** The display names of the objects with these uuids the caller may read (the others are left out). */
async function namesOf(session: Session, path: string, accept: string, uuids: Iterable<string>): Promise<Map<string, string>> {
  const found = await Promise.all(
    [...new Set(uuids)].map(async (uuid) => {
      const object = await session.get<Json>(`${path}/${encodeURIComponent(uuid)}`, accept).catch(() => undefined);
      return [uuid, object?.spec?.displayName] as const;
    }),
  );
  return new Map(found.filter((entry): entry is readonly [string, string] => typeof entry[1] === 'string'));
}

/** API keys' names by client id, where the caller may read the keys. */
export const keyNames = (session: Session, clientIds: Iterable<string>) => namesOf(session, PATHS.apiKeys, MEDIA.apiKey, clientIds);

/** An event's author in words: an API key by its name where known. */
export function authorLabel(author: Json, keys: ReadonlyMap<string, string>): string {
  switch (author.authorType) {
    case 'ApiKey':
      return `API key ${keys.get(author.identifier) ?? author.identifier}`;
    case 'ApiUser':
      return `API user ${author.identifier}`;
    case 'User':
      return `${author.identifier}`;
    default:
      return author.authorType === 'System' ? 'Blockyard' : String(author.identifier ?? author.authorType ?? '—');
  }
}

/** Where the console shows an object of each kind an event may be about. */
const ROUTES: Record<string, (uuid: string) => string> = {
  meshBuildingBlock: (uuid) => `#/blocks/${uuid}`,
  meshBuildingBlockDefinition: (uuid) => `#/marketplace/${uuid}`,
  meshApiKey: () => '#/keys',
};

/** The kind's word in a description, in words people use. */
const KIND_WORDS: Record<string, string> = {
  meshBuildingBlock: 'building block',
  meshBuildingBlockDefinition: 'definition',
  meshApiKey: 'API key',
};

interface NamedEvents extends ListPage<Json> {
  /** Names of the objects the events are about (and of the blocks of run events), by uuid. */
  names: Map<string, string>;
  keys: Map<string, string>;
}

/** A page of events with the names of what they are about: from their content, else read (blocks, keys). */
async function loadEvents(session: Session, path: string): Promise<NamedEvents> {
  const page = await session.list<Json>(path, MEDIA.event, 'meshEventLogs');
  const names = new Map<string, string>();
  for (const event of page.items) {
    const { uuid } = subjectOf(event);
    const name = event.spec.content?.spec?.displayName;
    if (uuid && typeof name === 'string') names.set(uuid, name);
  }
  const unnamedBlocks = page.items
    .map((event) => subjectOf(event).blockUuid)
    .filter((uuid): uuid is string => uuid !== undefined && !names.has(uuid));
  const keyIds = page.items
    .filter((event) => event.spec.author?.authorType === 'ApiKey')
    .map((event) => event.spec.author.identifier as string);
  const [blocks, keys] = await Promise.all([namesOf(session, PATHS.blocks, MEDIA.block, unnamedBlocks), keyNames(session, keyIds)]);
  for (const [uuid, name] of blocks) names.set(uuid, name);
  return { ...page, names, keys };
}

/**
 * The event's description with the uuid of what it is about (and of a run's block) replaced by a link
 * named after it; a deleted object's name stays text (its page is gone).
 */
function Description({ event, names }: { event: Json; names: ReadonlyMap<string, string> }) {
  const description = String(event.spec.description ?? '');
  const { kind, uuid, blockUuid } = subjectOf(event);
  const [target, route] = kind === 'meshBuildingBlockRun' ? [blockUuid, ROUTES.meshBuildingBlock] : [uuid, kind ? ROUTES[kind] : undefined];
  const name = target ? names.get(target) : undefined;
  if (!target || !name || !description.includes(target)) return <>{description}</>;
  const [written, ...rest] = description.split(target);
  const before = written!.replace(
    /(meshBuildingBlockDefinition|meshBuildingBlock|meshApiKey) $/,
    (kindWord) => `${KIND_WORDS[kindWord.trim()]} `,
  );
  const shown: ComponentChildren =
    route && event.spec.eventType !== 'Deleted' ? <a href={route(target)}>{name}</a> : <strong>{name}</strong>;
  return (
    <>
      {before}
      {shown}
      {rest.join(target)}
    </>
  );
}

/** The event log, newest first, with its filters; new events appear on the first page as they happen. */
export function EventsPage({ session }: { session: Session }) {
  const [filters, setFilters] = useState({ title: '', eventType: '', authorType: '', workspaceIdentifier: '', from: '', until: '' });
  const [page, setPage] = useState(0);
  const events = useLoad(
    () => loadEvents(session, `${PATHS.events}${query({ ...filters, page, size: 25 })}`),
    [JSON.stringify(filters), page],
  );
  const live = useLiveChanges(session, () => page === 0, events.reload);
  const set = (name: keyof typeof filters) => (event: Event) => {
    setFilters({ ...filters, [name]: (event.currentTarget as HTMLInputElement).value });
    setPage(0);
  };
  return (
    <Page title="Event log">
      <p class="live" role="status">
        {LIVE_LABELS[live]}
      </p>
      <form class="filters" aria-label="Filter events" onSubmit={(event) => event.preventDefault()}>
        <div>
          <label for="event-title">Title contains</label>
          <input id="event-title" value={filters.title} onChange={set('title')} />
        </div>
        <div>
          <label for="event-type">Event type</label>
          <select id="event-type" value={filters.eventType} onChange={set('eventType')}>
            <option value="">Any</option>
            {EVENT_TYPES.map((type) => (
              <option key={type}>{type}</option>
            ))}
          </select>
        </div>
        <div>
          <label for="event-author">Author type</label>
          <select id="event-author" value={filters.authorType} onChange={set('authorType')}>
            <option value="">Any</option>
            {AUTHOR_TYPES.map((type) => (
              <option key={type}>{type}</option>
            ))}
          </select>
        </div>
        <div>
          <label for="event-workspace">Workspace</label>
          <input id="event-workspace" value={filters.workspaceIdentifier} onChange={set('workspaceIdentifier')} />
        </div>
        <div>
          <label for="event-from">From (UTC date)</label>
          <input id="event-from" type="date" value={filters.from} onChange={set('from')} />
        </div>
        <div>
          <label for="event-until">Until (UTC date)</label>
          <input id="event-until" type="date" value={filters.until} onChange={set('until')} />
        </div>
      </form>
      <Show loaded={events}>
        {(result) =>
          result.items.length === 0 ? (
            <p class="empty">No event matches.</p>
          ) : (
            <>
              <div class="table-wrap" tabIndex={0} role="region" aria-label="Events (scrolls sideways)">
                <table>
                  <thead>
                    <tr>
                      <th scope="col">When</th>
                      <th scope="col">Event</th>
                      <th scope="col">Author</th>
                      <th scope="col">Workspace</th>
                    </tr>
                  </thead>
                  <tbody>
                    {result.items.map((event) => (
                      <tr key={event.metadata.uuid}>
                        <td>{formatTime(event.metadata.createdAt)}</td>
                        <td>
                          <strong>{event.spec.title}</strong>
                          <div>
                            <Description event={event} names={result.names} />
                          </div>
                        </td>
                        <td>{event.spec.author ? authorLabel(event.spec.author, result.keys) : '—'}</td>
                        <td>{event.spec.workspaceRef?.name ?? '—'}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
              <Pager page={result.page} onPage={setPage} />
            </>
          )
        }
      </Show>
    </Page>
  );
}
