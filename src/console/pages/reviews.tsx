import { useState } from 'preact/hooks';
import { MEDIA, PATHS, query, type Json, type Session } from '../api.js';
import { useLiveChanges } from '../live.js';
import { errorText, Page, Show, useLoad } from '../ui.js';

/** Versions released by a workspace wait here for an administrator before they reach the marketplace. */
export function ReviewsPage({ session }: { session: Session }) {
  const definitions = useLoad(() => session.all<Json>(PATHS.definitions, MEDIA.definition, 'meshBuildingBlockDefinitions'), []);
  useLiveChanges(session, (event) => event.includes('Marketplace Publication'), definitions.reload);
  const [reasons, setReasons] = useState<Record<string, string>>({});
  const [error, setError] = useState<string>();
  const decide = async (versionUuid: string, decision: 'approve' | 'reject') => {
    setError(undefined);
    try {
      await session.request('POST', `${PATHS.versions}/${versionUuid}/${decision}${decision === 'reject' ? query({ reason: reasons[versionUuid] }) : ''}`, { accept: MEDIA.version });
      definitions.reload();
    } catch (failure) {
      setError(errorText(failure));
    }
  };
  return (
    <Page title="Publication reviews">
      <p class="muted">Approve a version to put it in every workspace's marketplace, or reject it with a reason.</p>
      {error ? (
        <p class="error" role="alert">
          {error}
        </p>
      ) : null}
      <Show loaded={definitions}>
        {(all) => {
          const waiting = all.flatMap((definition) => (definition.status.versions as Json[]).filter((v) => v.reviewState === 'IN_REVIEW').map((version) => ({ definition, version })));
          if (waiting.length === 0) return <p class="empty">No version waits for a review.</p>;
          return (
            <ul class="reviews">
              {waiting.map(({ definition, version }) => (
                <li key={version.versionUuid} class="card">
                  <div>
                    <h2>
                      {definition.spec.displayName} version {version.versionNumber}
                    </h2>
                    <p class="muted">by {definition.metadata.ownedByWorkspace}</p>
                    <p>{definition.spec.description}</p>
                    <label for={`reason-${version.versionUuid}`}>Reason (for a rejection)</label>
                    <input id={`reason-${version.versionUuid}`} value={reasons[version.versionUuid] ?? ''} onInput={(event) => setReasons({ ...reasons, [version.versionUuid]: event.currentTarget.value })} />
                    <div class="actions">
                      <button type="button" class="primary" onClick={() => void decide(version.versionUuid, 'approve')}>
                        Approve
                      </button>
                      <button type="button" class="danger" onClick={() => void decide(version.versionUuid, 'reject')}>
                        Reject
                      </button>
                    </div>
                  </div>
                </li>
              ))}
            </ul>
          );
        }}
      </Show>
    </Page>
  );
}
