import { useEffect, useRef, useState } from 'preact/hooks';
import { PATHS, type Session } from './api.js';
import { followEvents } from './sse.js';

export type LiveState = 'connecting' | 'live' | 'reconnecting' | 'polling';

/** Without the event stream (no `EVENTLOG_LIST`), a page looks again this often. */
const POLL_MS = 5000;
/** A run report makes several events at once (steps, run status, block status): one reload for them. */
const SETTLE_MS = 200;

/**
 * Calls `onChange` whenever an event concerns something the page shows (`concerns` gets the event's
 * raw JSON text), and after a gap in the stream. Falls back to polling when the stream is refused.
 */
export function useLiveChanges(session: Session, concerns: (data: string) => boolean, onChange: () => void): LiveState {
  const [state, setState] = useState<LiveState>('connecting');
  const handlers = useRef({ concerns, onChange });
  handlers.current = { concerns, onChange };
  useEffect(() => {
    let poll: ReturnType<typeof setInterval> | undefined;
    let settle: ReturnType<typeof setTimeout> | undefined;
    const changed = () => {
      clearTimeout(settle);
      settle = setTimeout(() => handlers.current.onChange(), SETTLE_MS);
    };
    const follower = followEvents({
      url: PATHS.events,
      headers: async () => ({ authorization: await session.authorization() }),
      onEvent: (event) => {
        if (handlers.current.concerns(event.data)) changed();
      },
      onGap: changed,
      onStatus: (status) => {
        if (status === 'live') setState('live');
        else if (status === 'reconnecting') setState('reconnecting');
        else {
          setState('polling');
          poll = setInterval(() => handlers.current.onChange(), POLL_MS);
        }
      },
    });
    return () => {
      follower.close();
      clearInterval(poll);
      clearTimeout(settle);
    };
  }, [session]);
  return state;
}

/** What an event is about, read from its content (the object's answer, docs/events.md). */
export interface EventSubject {
  /** The content's kind (`meshBuildingBlock`, `meshBuildingBlockRun`, …). */
  kind: string | undefined;
  uuid: string | undefined;
  /** The block a block's or a run's event concerns. */
  blockUuid: string | undefined;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the event's content is another kind's answer
export function subjectOf(event: { spec?: { content?: any } }): EventSubject {
  const content = event.spec?.content ?? {};
  const kind = typeof content.kind === 'string' ? content.kind : undefined;
  const uuid = typeof content.metadata?.uuid === 'string' ? content.metadata.uuid : undefined;
  const runBlock = content.spec?.buildingBlock?.uuid;
  return { kind, uuid, blockUuid: kind === 'meshBuildingBlock' ? uuid : typeof runBlock === 'string' ? runBlock : undefined };
}

/** The subject of an event as the stream sends it (its JSON text); nothing for text that is not an event. */
export function subjectOfData(data: string): EventSubject {
  try {
    return subjectOf(JSON.parse(data) as { spec?: object });
  } catch {
    return { kind: undefined, uuid: undefined, blockUuid: undefined };
  }
}

export const LIVE_LABELS: Record<LiveState, string> = {
  connecting: 'Connecting to live updates…',
  live: 'Live: changes appear as they happen',
  reconnecting: 'Reconnecting to live updates…',
  polling: 'Live updates are not available to you; refreshing every 5 seconds',
};
