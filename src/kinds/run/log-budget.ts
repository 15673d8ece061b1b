import type { StepRow } from '../block/run.js';
import type { StepUpdate } from './model.js';

const MESSAGES = ['userMessage', 'systemMessage'] as const;

export const bytesOf = (text: string | undefined) => (text === undefined ? 0 : Buffer.byteLength(text, 'utf8'));

/** What replaces the part of a message beyond the run's log limit: the reader sees that text was dropped. */
export const truncationMarker = (limit: number) => `\n[… truncated by Blockyard: this run's log reached its limit of ${limit} bytes]`;

/** The longest prefix of `text` of at most `bytes` UTF-8 bytes (never half a character). */
export function utf8Prefix(text: string, bytes: number): string {
  if (bytes <= 0) return '';
  const buffer = Buffer.from(text, 'utf8');
  if (buffer.length <= bytes) return text;
  let end = bytes;
  while (end > 0 && (buffer[end]! & 0xc0) === 0x80) end--; // step back to a character's first byte
  return buffer.subarray(0, end).toString('utf8');
}

/**
 * Fits a report's step messages into the run's log budget: a run stores at most `limit`
 * bytes of messages, plus a marker of ~80 bytes on each cut message (at most 20 sources × 50 steps
 * × 2 of them). A message that replaces another frees the old one's bytes; one that does not fit is
 * cut and ends with the visible marker (the report still succeeds, as runners expect). Returns the
 * changes as they will be stored and the run's new total.
 */
export function fitLog(
  changes: readonly StepUpdate[],
  existing: readonly StepRow[],
  logBytes: number,
  limit: number,
): { changes: StepUpdate[]; logBytes: number } {
  const current = new Map(existing.map((step) => [step.stepId, { userMessage: step.userMessage, systemMessage: step.systemMessage }]));
  let total = logBytes;
  const fitted = changes.map((change) => {
    const stored = current.get(change.id) ?? { userMessage: undefined, systemMessage: undefined };
    const out: StepUpdate = { ...change };
    for (const field of MESSAGES) {
      const text = change[field];
      if (text === undefined) continue;
      total -= bytesOf(stored[field]);
      const available = limit - total;
      let kept = text;
      if (bytesOf(text) > available) {
        const marker = truncationMarker(limit);
        kept = utf8Prefix(text, available - bytesOf(marker)) + marker;
      }
      out[field] = kept;
      stored[field] = kept;
      total += bytesOf(kept);
    }
    current.set(change.id, stored);
    return out;
  });
  return { changes: fitted, logBytes: total };
}
