import { existsSync, readFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { request, type RequestOptions } from 'node:https';
import path from 'node:path';
import { parseArgs } from 'node:util';

export const EVENTS_USAGE = `usage:
  blockyard events [--follow] [filters] [--url <base URL>] [--cacert <PEM file>] [--last-event-id <uuid>] [--json]
      Prints the event log, one line per event: time, title, author, workspace, description.
      Without --follow: the latest events (--size, default 50), oldest first. With --follow: then every
      new event as it happens (the server's event stream), reconnecting with Last-Event-ID, until Ctrl-C.
    filters (the list's): --title <text> --description <text> (contain, case-insensitive)
      --author-type <ApiKey|ApiUser|System|User> --author <identifier> --event-type <Created|Changed|...>
      --workspace <identifier> | --workspace-name <text>   --exclude-title <title> (repeatable)
      --from <instant> --until <instant>
    server: --url, else BLOCKYARD_URL, else https://localhost:<BLOCKYARD_PORT or 8443>
      --cacert, else BLOCKYARD_CA_FILE, else <BLOCKYARD_DATA_DIR or ./data>/tls/cert.pem when it exists
      (the generated certificate), else the system's trusted CAs
    credentials (from the environment, never from arguments):
      BLOCKYARD_CLIENT_ID + BLOCKYARD_CLIENT_SECRET  an API key (EVENTLOG_LIST or ADM_EVENTLOG_LIST): logs in
                                                     at /api/login, and again when its token expires
      BLOCKYARD_USERNAME + BLOCKYARD_PASSWORD        an API user (Basic)
      BLOCKYARD_TOKEN                                an access token as it is`;

const EVENTS_PATH = '/api/meshobjects/mesheventlogs';
const EVENT_LOG = 'application/vnd.vendor.api.mesheventlog.v1-preview.hal+json';

/** The fields of a meshEventLog v1-preview the lines show. */
interface WireEvent {
  metadata: { uuid: string; createdAt: string };
  spec: { title: string; eventType: string; description: string; workspaceRef?: { name: string }; author: { authorType: string; identifier: string } };
}

/** A failure the user must fix (credentials, the server's refusal): one line, exit code 1. */
export class CliError extends Error {}

/** One readable line per event. */
export function formatEvent(event: WireEvent): string {
  const { spec } = event;
  return `${event.metadata.createdAt}  ${spec.title}  by ${spec.author.authorType} ${spec.author.identifier}  in ${spec.workspaceRef?.name ?? '-'}  ${spec.description}`;
}

type Env = Record<string, string | undefined>;

interface Target {
  base: URL;
  ca: string | undefined;
  authorization(renew: boolean): Promise<string>;
}

function target(values: { url?: string; cacert?: string }, env: Env): Target {
  const base = new URL(values.url ?? env.BLOCKYARD_URL ?? `https://localhost:${env.BLOCKYARD_PORT ?? '8443'}`);
  if (base.protocol !== 'https:') throw new CliError(`the server URL must be https://, got ${base.href}`);
  const generated = path.join(env.BLOCKYARD_DATA_DIR ?? 'data', 'tls', 'cert.pem');
  const caFile = values.cacert ?? env.BLOCKYARD_CA_FILE ?? (existsSync(generated) ? generated : undefined);
  const ca = caFile === undefined ? undefined : readFileSync(caFile, 'utf8');
  let token: string | undefined;
  const authorization = async (renew: boolean): Promise<string> => {
    if (env.BLOCKYARD_CLIENT_ID && env.BLOCKYARD_CLIENT_SECRET) {
      if (token === undefined || renew) token = await login(base, ca, env.BLOCKYARD_CLIENT_ID, env.BLOCKYARD_CLIENT_SECRET);
      return `Bearer ${token}`;
    }
    if (env.BLOCKYARD_USERNAME && env.BLOCKYARD_PASSWORD) return `Basic ${Buffer.from(`${env.BLOCKYARD_USERNAME}:${env.BLOCKYARD_PASSWORD}`).toString('base64')}`;
    if (env.BLOCKYARD_TOKEN) return `Bearer ${env.BLOCKYARD_TOKEN}`;
    throw new CliError('no credentials: set BLOCKYARD_CLIENT_ID and BLOCKYARD_CLIENT_SECRET (an API key), BLOCKYARD_USERNAME and BLOCKYARD_PASSWORD (an API user), or BLOCKYARD_TOKEN');
  };
  return { base, ca, authorization };
}

function send(url: URL, options: RequestOptions & { ca: string | undefined }, body?: string): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const req = request(url, { ...options, ...(options.ca === undefined ? {} : { ca: options.ca }) }, resolve);
    req.on('error', reject);
    req.end(body);
  });
}

async function text(response: IncomingMessage): Promise<string> {
  let body = '';
  response.setEncoding('utf8');
  for await (const chunk of response) body += chunk as string;
  return body;
}

const messageOf = (body: string) => {
  try {
    return (JSON.parse(body) as { message?: string }).message ?? body;
  } catch {
    return body.slice(0, 300);
  }
};

async function login(base: URL, ca: string | undefined, clientId: string, clientSecret: string): Promise<string> {
  const response = await send(new URL('/api/login', base), { method: 'POST', ca, headers: { 'content-type': 'application/json' } }, JSON.stringify({ clientId, clientSecret }));
  const body = await text(response);
  if (response.statusCode !== 200) throw new CliError(`login failed (${response.statusCode}): ${messageOf(body)}`);
  return (JSON.parse(body) as { access_token: string }).access_token;
}

function filterQuery(values: Record<string, string | string[] | boolean | undefined>): URLSearchParams {
  const query = new URLSearchParams();
  const names: [string, string][] = [
    ['title', 'title'],
    ['description', 'description'],
    ['author-type', 'authorType'],
    ['author', 'authorIdentifier'],
    ['event-type', 'eventType'],
    ['workspace', 'workspaceIdentifier'],
    ['workspace-name', 'workspaceName'],
    ['from', 'from'],
    ['until', 'until'],
  ];
  for (const [option, parameter] of names) {
    const value = values[option];
    if (typeof value === 'string') query.set(parameter, value);
  }
  for (const title of (values['exclude-title'] as string[] | undefined) ?? []) query.append('excludeTitle', title);
  return query;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** `blockyard events …`: the event log for people, optionally followed live. */
export async function runEventsCommand(argv: string[], out: (line: string) => void, env: Env = process.env): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      follow: { type: 'boolean', short: 'f' },
      json: { type: 'boolean' },
      url: { type: 'string' },
      cacert: { type: 'string' },
      'last-event-id': { type: 'string' },
      size: { type: 'string' },
      title: { type: 'string' },
      description: { type: 'string' },
      'author-type': { type: 'string' },
      author: { type: 'string' },
      'event-type': { type: 'string' },
      workspace: { type: 'string' },
      'workspace-name': { type: 'string' },
      'exclude-title': { type: 'string', multiple: true },
      from: { type: 'string' },
      until: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    out(`${EVENTS_USAGE}\n`);
    return;
  }
  const server = target(values, env);
  const query = filterQuery(values);
  const print = (event: WireEvent) => out(`${values.json ? JSON.stringify(event) : formatEvent(event)}\n`);
  let lastEventId = values['last-event-id'];

  if (!values.follow || lastEventId === undefined) {
    // The latest events first (the list is newest first): printed oldest first.
    const list = new URL(EVENTS_PATH, server.base);
    list.search = query.toString();
    list.searchParams.set('size', values.size ?? '50');
    const response = await send(list, { ca: server.ca, headers: { accept: EVENT_LOG, authorization: await server.authorization(false) } });
    const body = await text(response);
    if (response.statusCode !== 200) throw new CliError(`listing the events failed (${response.statusCode}): ${messageOf(body)}`);
    const events = ((JSON.parse(body) as { _embedded?: { meshEventLogs?: WireEvent[] } })._embedded?.meshEventLogs ?? []).reverse();
    for (const event of events) print(event);
    if (!values.follow) return;
    // Followed from the newest listed: nothing between the list and the stream is lost.
    lastEventId = events.at(-1)?.metadata.uuid;
  }

  const stream = new URL(EVENTS_PATH, server.base);
  stream.search = query.toString();
  let renew = false;
  let renewed = false;
  let retryMs = 2000;
  for (;;) {
    let response: IncomingMessage;
    try {
      const headers: Record<string, string> = { accept: 'text/event-stream', authorization: await server.authorization(renew) };
      if (lastEventId !== undefined) headers['last-event-id'] = lastEventId;
      response = await send(stream, { ca: server.ca, headers });
    } catch (error) {
      if (error instanceof CliError) throw error;
      process.stderr.write(`blockyard events: ${(error as Error).message}; reconnecting in ${retryMs / 1000} s\n`);
      await sleep(retryMs);
      continue;
    }
    renewed = renew;
    renew = false;
    if (response.statusCode !== 200) {
      const body = await text(response);
      // An expired token: log in again, once.
      if (response.statusCode === 401 && env.BLOCKYARD_CLIENT_ID && !renewed) {
        renew = true;
        continue;
      }
      if (response.statusCode === 429 || (response.statusCode ?? 0) >= 500) {
        process.stderr.write(`blockyard events: ${response.statusCode}: ${messageOf(body)}; retrying in ${retryMs / 1000} s\n`);
        await sleep(retryMs);
        continue;
      }
      throw new CliError(`following the events failed (${response.statusCode}): ${messageOf(body)}`);
    }
    let buffer = '';
    response.setEncoding('utf8');
    try {
      for await (const chunk of response) {
        buffer += chunk as string;
        for (let end = buffer.indexOf('\n\n'); end !== -1; end = buffer.indexOf('\n\n')) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          let data: string | undefined;
          let id: string | undefined;
          for (const line of block.split('\n')) {
            if (line.startsWith('data: ')) data = (data === undefined ? '' : `${data}\n`) + line.slice(6);
            else if (line.startsWith('id: ')) id = line.slice(4);
            else if (line.startsWith('retry: ')) retryMs = Number(line.slice(7)) || retryMs;
          }
          if (data === undefined) continue;
          print(JSON.parse(data) as WireEvent);
          if (id !== undefined) lastEventId = id;
        }
      }
    } catch {
      // The connection broke: resumed below.
    }
    // The server ended the stream (shutdown, expired credentials, a slow reader): resume after the last event.
    renew = env.BLOCKYARD_CLIENT_ID !== undefined;
    await sleep(retryMs);
  }
}
