import { readBody, refusalMessage, type ServerClient } from './client.js';
import { CliError } from './errors.js';
import { EVENTLOG_CODECS } from '../kinds/eventlog/wire/index.js';
import { formatMediaType } from '../lib/media-types.js';
import { valueAt } from './output.js';
import { visible } from './terminal.js';
import { EVENT_LOGS_PATH } from '../kinds/eventlog/model.js';

/** The fields of a meshEventLog the CLI reads. */
export interface WireEvent {
  metadata: { uuid: string; createdAt: string };
  spec: {
    title: string;
    eventType: string;
    description: string;
    workspaceRef?: { name: string };
    author: { authorType: string; identifier: string };
    content?: Record<string, unknown>;
  };
}

// The event log's own codec registry, not the whole kind table: following starts fast.
const EVENT_LOG = formatMediaType('vendor', EVENTLOG_CODECS.media[0]!.kind, EVENTLOG_CODECS.media[0]!.version);

/**
 * The description with the object's name where its content gives one (a block's, a definition's, a
 * key's `spec.displayName`): beside its uuid, else after the sentence, unless it already says it.
 */
export function namedDescription(event: WireEvent): string {
  const { description, content } = event.spec;
  const name = valueAt(content, 'spec.displayName');
  if (typeof name !== 'string' || name === '' || description.includes(name)) return description;
  const uuid = valueAt(content, 'metadata.uuid');
  if (typeof uuid === 'string' && uuid !== '' && description.includes(uuid)) return description.replace(uuid, `"${name}" (${uuid})`);
  return `${description} ("${name}")`;
}

/** One readable line per event; every value from the server made visible (they are other people's text). */
export function formatEvent(event: WireEvent): string {
  const { spec } = event;
  return visible(
    `${event.metadata.createdAt}  ${spec.title}  by ${spec.author.authorType} ${spec.author.identifier}  in ${spec.workspaceRef?.name ?? '-'}  ${namedDescription(event)}`,
  );
}

/** The latest `size` events matching `query`, oldest first (the list is newest first). */
export async function latestEvents(client: ServerClient, query: URLSearchParams, size: number): Promise<WireEvent[]> {
  const url = client.url(EVENT_LOGS_PATH);
  url.search = query.toString();
  url.searchParams.set('size', String(size));
  const page = await client.getJson<{ _embedded?: { meshEventLogs?: WireEvent[] } }>(url.href, EVENT_LOG, 'listing the events');
  return (page._embedded?.meshEventLogs ?? []).reverse();
}

export interface FollowOptions {
  query: URLSearchParams;
  /** Resume after this event (the stream's `Last-Event-ID`). */
  after?: string;
  /** Called on every (re)connection once the stream is open; true stops following. */
  onOpen?: () => Promise<boolean>;
  /** Called with each event; true stops following. */
  onEvent: (event: WireEvent) => Promise<boolean> | boolean;
  /** Notes about reconnections (stderr). */
  note: (line: string) => void;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One Server-Sent Events block: its data, id and retry fields. */
export function parseSseBlock(block: string): { data?: string; id?: string; retry?: number } {
  const parsed: { data?: string; id?: string; retry?: number } = {};
  for (const line of block.split('\n')) {
    if (line.startsWith('data: ')) parsed.data = (parsed.data === undefined ? '' : `${parsed.data}\n`) + line.slice(6);
    else if (line.startsWith('id: ')) parsed.id = line.slice(4);
    else if (line.startsWith('retry: ')) parsed.retry = Number(line.slice(7)) || undefined;
  }
  return parsed;
}

/**
 * Follows the event log (the server's event stream) until a callback says stop: reconnects after a
 * broken or ended stream (a shutdown, an expired token) with `Last-Event-ID`, so nothing is missed
 * or seen twice; 429 and 5xx answers are retried, other refusals end it with their message.
 */
export async function followEvents(client: ServerClient, options: FollowOptions): Promise<void> {
  const stream = client.url(EVENT_LOGS_PATH);
  stream.search = options.query.toString();
  let lastEventId = options.after;
  let retryMs = 2000;
  for (;;) {
    const headers: Record<string, string> = lastEventId === undefined ? {} : { 'last-event-id': lastEventId };
    let response;
    try {
      response = await client.open('GET', stream.href, { accept: 'text/event-stream', headers });
    } catch (error) {
      if (!(error instanceof CliError) || /not trusted|does not speak TLS/.test(error.message)) throw error;
      options.note(`${error.message}; reconnecting in ${retryMs / 1000} s`);
      await sleep(retryMs);
      continue;
    }
    if (response.statusCode !== 200) {
      const answer = { status: response.statusCode ?? 0, headers: response.headers, body: await readBody(response) };
      if (answer.status === 429 || answer.status >= 500) {
        options.note(`${refusalMessage('the event stream', answer)}; retrying in ${retryMs / 1000} s`);
        await sleep(retryMs);
        continue;
      }
      throw new CliError(refusalMessage('following the events', answer));
    }
    if (options.onOpen && (await options.onOpen())) {
      response.destroy();
      return;
    }
    let buffer = '';
    response.setEncoding('utf8');
    try {
      for await (const chunk of response) {
        buffer += chunk as string;
        for (let end = buffer.indexOf('\n\n'); end !== -1; end = buffer.indexOf('\n\n')) {
          const { data, id, retry } = parseSseBlock(buffer.slice(0, end));
          buffer = buffer.slice(end + 2);
          if (retry !== undefined) retryMs = retry;
          if (data === undefined) continue;
          if (id !== undefined) lastEventId = id;
          if (await options.onEvent(JSON.parse(data) as WireEvent)) {
            response.destroy();
            return;
          }
        }
      }
    } catch {
      // The connection broke: resumed below.
    }
    // The server ended the stream (shutdown, expired credentials, a slow reader): resume after the last event.
    await sleep(retryMs);
  }
}
