import type { ComponentChildren } from 'preact';
import { useCallback, useEffect, useId, useRef, useState } from 'preact/hooks';
import { ApiError } from './api.js';

/** Navigates within the console (hash routes: the server serves one page). */
export const go = (route: string) => {
  window.location.hash = route;
};

/** The state of something loaded from the API: data, or an error in words, or loading. */
export interface Loaded<T> {
  data: T | undefined;
  error: string | undefined;
  loading: boolean;
  reload(): void;
}

export function useLoad<T>(load: () => Promise<T>, deps: unknown[]): Loaded<T> {
  const [state, setState] = useState<{ data: T | undefined; error: string | undefined; loading: boolean }>({
    data: undefined,
    error: undefined,
    loading: true,
  });
  const [generation, setGeneration] = useState(0);
  const loadRef = useRef(load);
  loadRef.current = load;
  useEffect(() => {
    let current = true;
    setState((previous) => ({ ...previous, loading: true }));
    loadRef.current().then(
      (data) => current && setState({ data, error: undefined, loading: false }),
      (error: unknown) => current && setState({ data: undefined, error: errorText(error), loading: false }),
    );
    return () => {
      current = false;
    };
  }, [...deps, generation]);
  const reload = useCallback(() => setGeneration((n) => n + 1), []);
  return { ...state, reload };
}

/** An error as a sentence for people. */
export function errorText(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.status === 403) return `Not allowed: ${error.message}`;
    if (error.status === 404) return `Not found: ${error.message}`;
    return error.message;
  }
  if (error instanceof TypeError) return 'The server cannot be reached. Check your connection and try again.';
  return (error as Error)?.message ?? String(error);
}

/** Shows a loaded value, its loading state, its error, or its empty state. */
export function Show<T>({
  loaded,
  empty,
  children,
}: {
  loaded: Loaded<T>;
  empty?: (data: T) => boolean;
  children: (data: T) => ComponentChildren;
}) {
  if (loaded.error)
    return (
      <p class="error" role="alert">
        {loaded.error}
      </p>
    );
  if (loaded.data === undefined)
    return (
      <p class="loading" role="status">
        Loading…
      </p>
    );
  if (empty?.(loaded.data)) return <p class="empty">Nothing here yet.</p>;
  return <>{children(loaded.data)}</>;
}

const STATUS_TONES: Record<string, string> = {
  SUCCEEDED: 'ok',
  RELEASED: 'ok',
  PUBLISHED: 'ok',
  APPROVED: 'ok',
  FAILED: 'bad',
  ABORTED: 'bad',
  REJECTED: 'bad',
  IN_PROGRESS: 'busy',
  PENDING: 'wait',
  IN_REVIEW: 'wait',
  DRAFT: 'wait',
};

export function Badge({ value }: { value: string }) {
  const tone = STATUS_TONES[value] ?? (value.startsWith('WAITING') ? 'wait' : 'plain');
  return <span class={`badge badge-${tone}`}>{value.replaceAll('_', ' ')}</span>;
}

export function Page({ title, actions, children }: { title: string; actions?: ComponentChildren; children: ComponentChildren }) {
  useEffect(() => {
    document.title = `${title} · Blockyard console`;
  }, [title]);
  return (
    <>
      <div class="page-head">
        <h1>{title}</h1>
        {actions ? <div class="actions">{actions}</div> : null}
      </div>
      {children}
    </>
  );
}

/** A modal dialog's action: busy while it runs, the dialog closed when it succeeds, its failure shown in the dialog. */
export function useDialogAction() {
  const dialog = useRef<HTMLDialogElement>(null);
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const run = async (action: () => Promise<void>) => {
    setBusy(true);
    setError(undefined);
    try {
      await action();
      dialog.current?.close();
    } catch (failure) {
      setError(errorText(failure));
    } finally {
      setBusy(false);
    }
  };
  return { dialog, error, busy, run, clearError: () => setError(undefined) };
}

/** A form's failure as a whole and its submit button (its label while the form is sent). */
export function FormSubmit({
  error,
  busy,
  label,
  busyLabel,
}: {
  error: string | undefined;
  busy: boolean;
  label: string;
  busyLabel: string;
}) {
  return (
    <>
      {error ? (
        <p class="error" role="alert">
          {error}
        </p>
      ) : null}
      <button type="submit" class="primary" disabled={busy}>
        {busy ? busyLabel : label}
      </button>
    </>
  );
}

/** Asks before something that cannot be undone; the action runs only after "confirm". */
export function ConfirmButton({
  label,
  question,
  confirmLabel,
  onConfirm,
  danger = true,
}: {
  label: string;
  question: string;
  confirmLabel: string;
  onConfirm(): Promise<void>;
  danger?: boolean;
}) {
  const { dialog, error, busy, run } = useDialogAction();
  const questionId = useId();
  const confirm = () => run(onConfirm);
  return (
    <>
      <button type="button" class={danger ? 'danger' : ''} onClick={() => dialog.current?.showModal()}>
        {label}
      </button>
      <dialog ref={dialog} aria-labelledby={questionId}>
        <p id={questionId}>{question}</p>
        {error ? (
          <p class="error" role="alert">
            {error}
          </p>
        ) : null}
        <div class="actions">
          <button type="button" onClick={() => dialog.current?.close()}>
            Cancel
          </button>
          <button type="button" class={danger ? 'danger' : 'primary'} disabled={busy} onClick={() => void confirm()}>
            {confirmLabel}
          </button>
        </div>
      </dialog>
    </>
  );
}

/** Previous/next for a paged list. */
export function Pager({ page, onPage }: { page: { number: number; totalPages: number; totalElements: number }; onPage(n: number): void }) {
  if (page.totalPages <= 1) return <p class="muted">{page.totalElements} in total</p>;
  return (
    <nav class="pager" aria-label="Pages">
      <button type="button" disabled={page.number === 0} onClick={() => onPage(page.number - 1)}>
        Previous
      </button>
      <span>
        Page {page.number + 1} of {page.totalPages} ({page.totalElements} in total)
      </span>
      <button type="button" disabled={page.number + 1 >= page.totalPages} onClick={() => onPage(page.number + 1)}>
        Next
      </button>
    </nav>
  );
}

export const formatTime = (iso: unknown) =>
  typeof iso === 'string'
    ? new Date(iso).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'medium', timeZone: 'UTC' }) + ' UTC'
    : '—';
