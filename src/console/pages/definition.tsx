import { MEDIA, PATHS, type Json, type Session } from '../api.js';
import { renderMarkdown } from '../markdown.js';
import { Badge, Page, Show, useLoad } from '../ui.js';
import { DefinitionSymbol } from './marketplace.js';

/** The inputs of a version, as a table (sensitive ones marked; values never shown here). */
export function InputsTable({ inputs }: { inputs: Record<string, Json> }) {
  const entries = Object.entries(inputs);
  if (entries.length === 0) return <p class="empty">This version has no inputs.</p>;
  return (
    <div class="table-wrap" tabIndex={0} role="region" aria-label="Inputs (scrolls sideways)">
      <table>
        <thead>
          <tr>
            <th scope="col">Input</th>
            <th scope="col">Type</th>
            <th scope="col">Set by</th>
            <th scope="col">Default</th>
          </tr>
        </thead>
        <tbody>
          {entries.map(([key, input]) => (
            <tr key={key}>
              <td>
                {input.displayName || key} <code>{key}</code>
                {input.description ? <div class="muted">{input.description}</div> : null}
              </td>
              <td>
                {input.type}
                {input.isSensitive ? ' (sensitive)' : ''}
              </td>
              <td>{String(input.assignmentType).replaceAll('_', ' ').toLowerCase()}</td>
              <td>
                {input.isSensitive || input.defaultValue === null || input.defaultValue === undefined
                  ? '—'
                  : JSON.stringify(input.defaultValue)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** A marketplace entry: what it is, its readme, its released versions and their inputs. */
export function DefinitionPage({ session, uuid }: { session: Session; uuid: string }) {
  const definition = useLoad(() => session.get<Json>(`${PATHS.definitions}/${encodeURIComponent(uuid)}`, MEDIA.definition), [uuid]);
  // The version list is its owner's (and admins'); another workspace reads the version offered to it.
  const versions = useLoad(async () => {
    const { identity } = session;
    const d = await session.get<Json>(`${PATHS.definitions}/${encodeURIComponent(uuid)}`, MEDIA.definition);
    if (identity.admin || identity.workspace === undefined || identity.workspace === d.metadata.ownedByWorkspace) {
      return session.all<Json>(
        `${PATHS.versions}?buildingBlockDefinitionUuid=${encodeURIComponent(uuid)}`,
        MEDIA.version,
        'meshBuildingBlockDefinitionVersions',
      );
    }
    const offered = d.status.latestReleasedVersionUuid as string | undefined;
    return offered ? [await session.get<Json>(`${PATHS.versions}/${encodeURIComponent(offered)}`, MEDIA.version)] : [];
  }, [uuid]);
  return (
    <Show loaded={definition}>
      {(d) => (
        <Page
          title={d.spec.displayName}
          actions={
            d.status.latestReleasedVersionUuid ? (
              <a class="button primary" href={`#/order/${d.metadata.uuid}`}>
                Order
              </a>
            ) : null
          }
        >
          <div class="definition-head">
            <DefinitionSymbol definition={d} />
            <div>
              <p>{d.spec.description}</p>
              <p class="muted">
                Offered by {d.metadata.ownedByWorkspace} ·{' '}
                {d.spec.targetType === 'TENANT_LEVEL'
                  ? `for tenants of ${(d.spec.supportedPlatforms ?? []).map((p: unknown) => (typeof p === 'string' ? p : (p as Json).name)).join(', ')}`
                  : 'for workspaces'}
              </p>
              <p>
                {d.spec.documentationUrl ? (
                  <a href={d.spec.documentationUrl} rel="noopener noreferrer" target="_blank">
                    Documentation
                  </a>
                ) : null}{' '}
                {d.spec.supportUrl ? (
                  <a href={d.spec.supportUrl} rel="noopener noreferrer" target="_blank">
                    Support
                  </a>
                ) : null}
              </p>
            </div>
          </div>
          {d.spec.readme ? (
            <section aria-labelledby="readme-title">
              <h2 id="readme-title">Readme</h2>
              <div class="readme" dangerouslySetInnerHTML={{ __html: renderMarkdown(d.spec.readme) }} />
            </section>
          ) : null}
          <section aria-labelledby="versions-title">
            <h2 id="versions-title">Versions</h2>
            {versions.error ? (
              <p class="muted">{versions.error}</p>
            ) : (
              <Show loaded={versions}>
                {(all) =>
                  all
                    .filter((v) => v.spec.state === 'RELEASED')
                    .reverse()
                    .map((v) => (
                      <details key={v.metadata.uuid} open={v.metadata.uuid === d.status.latestReleasedVersionUuid}>
                        <summary>
                          Version {v.spec.versionNumber} <Badge value={v.spec.state} />
                        </summary>
                        <InputsTable inputs={v.spec.inputs ?? {}} />
                        <a href={`#/order/${d.metadata.uuid}/${v.metadata.uuid}`}>Order version {v.spec.versionNumber}</a>
                      </details>
                    ))
                }
              </Show>
            )}
          </section>
        </Page>
      )}
    </Show>
  );
}
