import { useState } from 'preact/hooks';
import { MEDIA, PATHS, query, type Json, type Session } from '../api.js';
import { LIVE_LABELS, useLiveChanges } from '../live.js';
import { formatTime, Page, Pager, Show, useLoad } from '../ui.js';

const EVENT_TYPES = ['Added', 'Approved', 'Cancelled', 'Changed', 'Created', 'Deleted', 'Rejected', 'Removed', 'Requested'];
const AUTHOR_TYPES = ['ApiKey', 'ApiUser', 'System', 'User'];

/** The event log, newest first, with its filters; new events appear on the first page as they happen. */
export function EventsPage({ session }: { session: Session }) {
  const [filters, setFilters] = useState({ title: '', eventType: '', authorType: '', workspaceIdentifier: '', from: '', until: '' });
  const [page, setPage] = useState(0);
  const events = useLoad(() => session.list<Json>(`${PATHS.events}${query({ ...filters, page, size: 25 })}`, MEDIA.event, 'meshEventLogs'), [JSON.stringify(filters), page]);
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
                          <div>{event.spec.description}</div>
                        </td>
                        <td>
                          {event.spec.author?.authorType} <span class="muted">{event.spec.author?.identifier}</span>
                        </td>
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
