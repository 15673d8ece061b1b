import assert from 'node:assert/strict';
import type { ApiClient } from './client.js';
import { media } from './client.js';

export const EVENT_LOG = media('mesheventlog', 'v1-preview');
export const EVENTS = '/api/meshobjects/mesheventlogs';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Event = Record<string, any>;

/** One page of events (newest first) with the query as given; asserts 200. */
export async function listEvents(client: ApiClient, query = ''): Promise<{ events: Event[]; total: number }> {
  const response = await client.get(`${EVENTS}${query ? `?${query}` : ''}`, { headers: { accept: EVENT_LOG } });
  assert.equal(response.status, 200, response.text);
  return { events: response.json._embedded.meshEventLogs, total: response.json.page.totalElements };
}

/** Every event matching the query (all pages), newest first. */
export async function allEvents(client: ApiClient, query = ''): Promise<Event[]> {
  const out: Event[] = [];
  for (let page = 0; ; page++) {
    const { events, total } = await listEvents(client, `${query ? `${query}&` : ''}size=350&page=${page}`);
    out.push(...events);
    if (out.length >= total || events.length === 0) return out;
  }
}

/** Events whose content names `id` anywhere (an object's own events), oldest first. */
export async function eventsAbout(client: ApiClient, id: string, query = ''): Promise<Event[]> {
  const events = await allEvents(client, query);
  return events.filter((event) => JSON.stringify(event.spec.content).includes(id) || event.spec.description.includes(id)).reverse();
}

export const titlesOf = (events: readonly Event[]) => events.map((event) => event.spec.title as string);
