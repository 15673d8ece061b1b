import { MEDIA, PATHS, query, type Json, type Session } from '../api.js';
import { useLiveChanges } from '../live.js';
import { Badge, ConfirmButton, Page, Show, useLoad } from '../ui.js';
import { BlockTable } from './blocks.js';
import { InputsTable } from './definition.js';
import { DraftEditorPage, NewDefinitionPage } from './definition-editor.js';
import { DefinitionSymbol } from './marketplace.js';

/**
 * The spec of a new draft: the latest version's content under the next number. The answer's filled-in
 * defaults that a request may not carry (`null`s) are left out; secrets stay as their `{hash}`, which
 * keeps them.
 */
export function draftSpec(latest: Json, versionNumber: number): Json {
  const { state: _state, ...spec } = latest;
  const withoutNulls = Object.fromEntries(Object.entries(spec).filter(([, value]) => value !== null));
  const inputs = Object.fromEntries(
    Object.entries((spec.inputs ?? {}) as Record<string, Json>).map(([key, input]) => [
      key,
      Object.fromEntries(Object.entries(input).filter(([, value]) => value !== null)),
    ]),
  );
  return { ...withoutNulls, inputs, versionNumber, state: 'DRAFT' };
}

/** May the caller create definitions (in its workspace or, as an admin, in any)? Unknown permissions: let the server say. */
function mayAuthor(session: Session): boolean {
  const { permissions } = session.identity;
  return (
    permissions === undefined ||
    permissions.includes('BUILDINGBLOCKDEFINITION_SAVE') ||
    permissions.includes('ADM_BUILDINGBLOCKDEFINITION_SAVE')
  );
}

/**
 * The definitions the caller's workspace offers; every definition for admins (an admin's key acts in
 * the admin workspace, which owns none: filtering by it showed nothing).
 */
export function PlatformPage({ session }: { session: Session }) {
  const { admin } = session.identity;
  const workspace = admin ? undefined : session.identity.workspace;
  const definitions = useLoad(
    () =>
      session.all<Json>(
        `${PATHS.definitions}${query({ workspaceIdentifier: workspace })}`,
        MEDIA.definition,
        'meshBuildingBlockDefinitions',
      ),
    [workspace],
  );
  return (
    <Page
      title={admin ? 'Platform: every definition' : 'Platform: your definitions'}
      actions={
        mayAuthor(session) ? (
          <a class="button primary" href="#/platform/new">
            New definition
          </a>
        ) : null
      }
    >
      <p class="muted">
        {workspace
          ? `Definitions of ${workspace}: versions, releases, and the blocks built from them.`
          : 'Every definition of every workspace (you are an administrator).'}
      </p>
      <Show loaded={definitions}>
        {(all) =>
          all.length === 0 ? (
            <p class="empty">No definitions yet.</p>
          ) : (
            <div class="table-wrap" tabIndex={0} role="region" aria-label="Definitions (scrolls sideways)">
              <table>
                <thead>
                  <tr>
                    <th scope="col">Definition</th>
                    <th scope="col">Owner</th>
                    <th scope="col">Latest version</th>
                    <th scope="col">Marketplace</th>
                    <th scope="col">Blocks</th>
                  </tr>
                </thead>
                <tbody>
                  {all.map((d) => (
                    <tr key={d.metadata.uuid}>
                      <td>
                        <DefinitionSymbol definition={d} /> <a href={`#/platform/${d.metadata.uuid}`}>{d.spec.displayName}</a>
                      </td>
                      <td>{d.metadata.ownedByWorkspace}</td>
                      <td>
                        {d.status.latestVersion} {d.status.latestVersion > d.status.latestReleasedVersion ? <Badge value="DRAFT" /> : null}
                      </td>
                      <td>
                        <Badge value={d.status.publicationState} />
                      </td>
                      <td>{d.status.usageCount ?? '—'}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )
        }
      </Show>
    </Page>
  );
}

/**
 * The blocks of the definition in every workspace that ordered it (`managedByDefinitionUuid`, for its
 * owner's operators); without that permission, the caller's own blocks of it.
 */
function blocksOf(session: Session, uuid: string): Promise<Json[]> {
  const list = (filter: Record<string, string>) => session.all<Json>(`${PATHS.blocks}${query(filter)}`, MEDIA.block, 'meshBuildingBlocks');
  return list({ managedByDefinitionUuid: uuid })
    .catch(() => list({ definitionUuid: uuid }))
    .catch(() => [] as Json[]);
}

async function loadDefinition(session: Session, uuid: string) {
  const [definition, versions, blocks] = await Promise.all([
    session.get<Json>(`${PATHS.definitions}/${encodeURIComponent(uuid)}`, MEDIA.definition),
    session.all<Json>(
      `${PATHS.versions}${query({ buildingBlockDefinitionUuid: uuid })}`,
      MEDIA.version,
      'meshBuildingBlockDefinitionVersions',
    ),
    blocksOf(session, uuid),
  ]);
  return { definition, versions, blocks };
}

/** One definition for its platform team: versions (new draft, release), and the blocks of it. */
export function PlatformDefinitionPage({ session, uuid }: { session: Session; uuid: string }) {
  const data = useLoad(() => loadDefinition(session, uuid), [uuid]);
  useLiveChanges(session, (event) => event.includes(uuid), data.reload);
  return (
    <Show loaded={data}>
      {({ definition, versions, blocks }) => {
        const latest = versions.at(-1);
        const draft = latest?.spec.state === 'DRAFT' ? latest : undefined;
        return (
          <Page
            title={definition.spec.displayName}
            actions={
              draft ? (
                <>
                  <a class="button" href={`#/platform/${encodeURIComponent(uuid)}/edit`}>
                    Edit draft
                  </a>
                  <ConfirmButton
                    label={`Release version ${draft.spec.versionNumber}`}
                    question={`Release version ${draft.spec.versionNumber}? A released version never changes again.`}
                    confirmLabel="Release"
                    danger={false}
                    onConfirm={async () => {
                      await session.request('PUT', `${PATHS.versions}/${draft.metadata.uuid}`, {
                        accept: MEDIA.version,
                        body: {
                          apiVersion: 'v1-preview',
                          kind: 'meshBuildingBlockDefinitionVersion',
                          spec: { ...draftSpec(draft.spec, draft.spec.versionNumber), state: 'RELEASED' },
                        },
                      });
                      data.reload();
                    }}
                  />
                </>
              ) : latest ? (
                <ConfirmButton
                  label="New draft"
                  question={`Start version ${latest.spec.versionNumber + 1} as a draft, a copy of version ${latest.spec.versionNumber}?`}
                  confirmLabel="Create draft"
                  danger={false}
                  onConfirm={async () => {
                    await session.request('POST', PATHS.versions, {
                      accept: MEDIA.version,
                      body: {
                        apiVersion: 'v1-preview',
                        kind: 'meshBuildingBlockDefinitionVersion',
                        spec: draftSpec(latest.spec, latest.spec.versionNumber + 1),
                      },
                    });
                    data.reload();
                  }}
                />
              ) : null
            }
          >
            <p class="muted">
              Owned by {definition.metadata.ownedByWorkspace} · marketplace: <Badge value={definition.status.publicationState} />
            </p>
            <section aria-labelledby="platform-versions">
              <h2 id="platform-versions">Versions</h2>
              <ul class="versions">
                {[...versions].reverse().map((version) => (
                  <li key={version.metadata.uuid}>
                    <details open={version === latest}>
                      <summary>
                        Version {version.spec.versionNumber} <Badge value={version.spec.state} />{' '}
                        {version.status?.reviewState ? <Badge value={version.status.reviewState} /> : null}{' '}
                        <span class="muted">{version.spec.implementation?.type}</span>
                      </summary>
                      <InputsTable inputs={version.spec.inputs ?? {}} />
                      {version.status?.reviewReason ? (
                        <p>
                          <strong>Reason given by the reviewer:</strong> {version.status.reviewReason}
                        </p>
                      ) : null}
                    </details>
                  </li>
                ))}
              </ul>
            </section>
            <section aria-labelledby="platform-blocks">
              <h2 id="platform-blocks">Blocks of this definition</h2>
              <p class="muted">Open a block to see its runs, with the system messages shown to operators only.</p>
              <BlockTable blocks={blocks} />
            </section>
          </Page>
        );
      }}
    </Show>
  );
}

/** The platform section's routes: the list, a new definition, a definition, its draft's editor. */
export function PlatformSection({ session, id, sub }: { session: Session; id: string | undefined; sub: string | undefined }) {
  if (id === undefined) return <PlatformPage session={session} />;
  if (id === 'new') return <NewDefinitionPage session={session} />;
  if (sub === 'edit') return <DraftEditorPage session={session} uuid={id} />;
  return <PlatformDefinitionPage session={session} uuid={id} />;
}
