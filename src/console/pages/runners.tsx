import { MEDIA, PATHS, type Json, type Session } from '../api.js';
import { formatTime, Page, Show, useLoad } from '../ui.js';

/** The runners the caller sees: its workspace's and the shared (PUBLIC) ones. */
export function RunnersPage({ session }: { session: Session }) {
  const runners = useLoad(() => session.all<Json>(PATHS.runners, MEDIA.runner, 'meshBuildingBlockRunners'), []);
  return (
    <Page title="Runners">
      <p class="muted">Runners claim the runs of building blocks and report their progress.</p>
      <Show loaded={runners} empty={(all) => all.length === 0}>
        {(all) => (
          <div class="table-wrap" tabIndex={0} role="region" aria-label="Runners (scrolls sideways)">
            <table>
              <thead>
                <tr>
                  <th scope="col">Runner</th>
                  <th scope="col">Type</th>
                  <th scope="col">Workspace</th>
                  <th scope="col">Restriction</th>
                  <th scope="col">Last seen</th>
                </tr>
              </thead>
              <tbody>
                {all.map((runner) => (
                  <tr key={runner.metadata.uuid}>
                    <td>
                      {runner.spec.displayName ?? runner.metadata.uuid}
                      <div class="muted">
                        <code>{runner.metadata.uuid}</code>
                      </div>
                    </td>
                    <td>{runner.spec.implementationType}</td>
                    <td>{runner.metadata.ownedByWorkspace}</td>
                    <td>{runner.spec.restriction}</td>
                    <td>{runner.metadata.lastSeen ? formatTime(runner.metadata.lastSeen) : 'never'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Show>
    </Page>
  );
}
