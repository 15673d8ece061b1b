import { useId, useState } from 'preact/hooks';
import { MEDIA, PATHS, query, type Json, type Session } from '../api.js';
import { useLiveChanges } from '../live.js';
import { errorText, Page, Show, useDialogAction, useLoad } from '../ui.js';

/**
 * Rejecting asks for the reason (the API keeps it and shows it to the owner as `status.reviewReason`)
 * and for a confirmation: the owner must release a new version to try again.
 */
function RejectButton({ title, onReject }: { title: string; onReject(reason: string): Promise<void> }) {
  const { dialog, error, busy, run, clearError } = useDialogAction();
  const id = useId();
  const [reason, setReason] = useState('');
  const [missing, setMissing] = useState(false);
  const open = () => {
    setReason('');
    setMissing(false);
    clearError();
    dialog.current?.showModal();
  };
  const reject = async () => {
    if (reason.trim() === '') return setMissing(true);
    await run(() => onReject(reason.trim()));
  };
  return (
    <>
      <button type="button" class="danger" onClick={open}>
        Reject
      </button>
      <dialog ref={dialog} aria-labelledby={`${id}-title`}>
        <div>
          <h2 id={`${id}-title`}>Reject {title}?</h2>
          <p>It stays out of the marketplace; its owner sees your reason and can release a new version.</p>
          <div class={missing ? 'field invalid' : 'field'}>
            <label for={`${id}-reason`}>
              Reason <span class="required">(required)</span>
            </label>
            <textarea
              id={`${id}-reason`}
              rows={3}
              required
              aria-invalid={missing ? 'true' : undefined}
              aria-describedby={missing ? `${id}-reason-error` : undefined}
              value={reason}
              onInput={(event) => (setReason(event.currentTarget.value), setMissing(false))}
            />
            {missing ? (
              <p class="field-error" id={`${id}-reason-error`}>
                Give the reason for the rejection
              </p>
            ) : null}
          </div>
          {error ? (
            <p class="error" role="alert">
              {error}
            </p>
          ) : null}
          <div class="actions">
            <button type="button" onClick={() => dialog.current?.close()}>
              Cancel
            </button>
            <button type="button" class="danger" disabled={busy} onClick={() => void reject()}>
              Reject version
            </button>
          </div>
        </div>
      </dialog>
    </>
  );
}

/** Versions released by a workspace wait here for an administrator before they reach the marketplace. */
export function ReviewsPage({ session }: { session: Session }) {
  const definitions = useLoad(() => session.all<Json>(PATHS.definitions, MEDIA.definition, 'meshBuildingBlockDefinitions'), []);
  useLiveChanges(session, (event) => event.includes('Marketplace Publication'), definitions.reload);
  const [error, setError] = useState<string>();
  const approve = async (versionUuid: string) => {
    setError(undefined);
    try {
      await session.request('POST', `${PATHS.versions}/${versionUuid}/approve`, { accept: MEDIA.version });
      definitions.reload();
    } catch (failure) {
      setError(errorText(failure));
    }
  };
  const reject = async (versionUuid: string, reason: string) => {
    await session.request('POST', `${PATHS.versions}/${versionUuid}/reject${query({ reason })}`, { accept: MEDIA.version });
    definitions.reload();
  };
  return (
    <Page title="Publication reviews">
      <p class="muted">Approve a version to put it in every workspace's marketplace, or reject it with a reason for its owner.</p>
      {error ? (
        <p class="error" role="alert">
          {error}
        </p>
      ) : null}
      <Show loaded={definitions}>
        {(all) => {
          const waiting = all.flatMap((definition) =>
            (definition.status.versions as Json[]).filter((v) => v.reviewState === 'IN_REVIEW').map((version) => ({ definition, version })),
          );
          if (waiting.length === 0) return <p class="empty">No version waits for a review.</p>;
          return (
            <ul class="reviews">
              {waiting.map(({ definition, version }) => {
                const title = `${definition.spec.displayName as string} version ${version.versionNumber as number}`;
                return (
                  <li key={version.versionUuid} class="card">
                    <div>
                      <h2>{title}</h2>
                      <p class="muted">by {definition.metadata.ownedByWorkspace}</p>
                      <p>{definition.spec.description}</p>
                      <div class="actions">
                        <button type="button" class="primary" onClick={() => void approve(version.versionUuid)}>
                          Approve
                        </button>
                        <RejectButton title={title} onReject={(reason) => reject(version.versionUuid, reason)} />
                      </div>
                    </div>
                  </li>
                );
              })}
            </ul>
          );
        }}
      </Show>
    </Page>
  );
}
