import type { EventCodec } from '../codec.js';
import { EVENT_TYPES, type EventDraft, type EventType } from './model.js';

/**
 * An event a kind writes: its title (the OpenAPI's list where it has one, the same style where it has
 * none) and its `eventType`. Each kind declares its events in its folder (`events.json`, typed by `events.ts`) and its manifest;
 * services name an event by its entry there.
 */
export interface EventTitle {
  readonly title: string;
  readonly eventType: EventType;
}

/** An entry of a kind's `events.json`: `note` says why a title not in the OpenAPI's list was chosen ("new: …"). */
interface EventCatalogEntry {
  readonly title: string;
  readonly eventType: string;
  readonly note?: string;
}

/**
 * A kind's events, read from its `events.json` (a catalog of wire strings, kept as data): the keys
 * services name them by, each checked to carry an event type the event log knows.
 */
export function eventCatalog<K extends string>(entries: Readonly<Record<K, EventCatalogEntry>>): Readonly<Record<K, EventTitle>> {
  const catalog = {} as Record<K, EventTitle>;
  for (const [key, { title, eventType }] of Object.entries<EventCatalogEntry>(entries)) {
    if (!(EVENT_TYPES as readonly string[]).includes(eventType)) throw new Error(`event ${key}: unknown eventType ${eventType}`);
    catalog[key as K] = { title, eventType: eventType as EventType };
  }
  return catalog;
}

/** What an event says about the changed object. */
export interface EventSubject<T> {
  /** The kind's event codec: the only way an object becomes event content. */
  codec: EventCodec<T>;
  /** Its identity as clients name it (name, uuid, full identifier). */
  id: string;
  /** Its workspace: the members (and admins) see the event, so the codec answers as to them. */
  workspace?: string | undefined;
  /** The object after the change (before it, for a deletion). */
  object: T;
  /** The object before the change (only `Changed` events keep it). */
  previous?: T;
  /** A sentence replacing the generated description. */
  description?: string;
}

const VERB: Record<EventType, string> = {
  Added: 'was added',
  Approved: 'was approved',
  Cancelled: 'was cancelled',
  Changed: 'was changed',
  Created: 'was created',
  Deleted: 'was deleted',
  Rejected: 'was rejected',
  Removed: 'was removed',
  Requested: 'was requested',
};

/** The draft of event `event` about `subject`: e.g. "Workspace Created", "meshWorkspace my-team was created". */
export function eventOf<T>(event: EventTitle, subject: EventSubject<T>): EventDraft {
  const { title, eventType } = event;
  const { codec } = subject;
  return {
    title,
    eventType,
    description: subject.description ?? `${codec.kind} ${subject.id} ${VERB[eventType]}`,
    ...(subject.workspace !== undefined ? { workspace: subject.workspace } : {}),
    content: codec.encode(subject.object),
    ...(eventType === 'Changed' && subject.previous !== undefined ? { previousContent: codec.encode(subject.previous) } : {}),
  };
}

/** JSON text with object keys sorted: equal values give equal text whatever order their keys were set in. */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) =>
    item !== null && typeof item === 'object' && !Array.isArray(item)
      ? Object.fromEntries(Object.entries(item).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)))
      : item,
  );
}

/** Whether two objects differ as JSON, key order aside (a PUT that changes nothing writes no event). */
export const differs = (a: unknown, b: unknown) => canonicalJson(a) !== canonicalJson(b);
