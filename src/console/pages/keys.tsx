import { useEffect, useRef, useState } from 'preact/hooks';
import { PERMISSION_CODES } from '../../auth/permissions.js';
import { MEDIA, PATHS, query, type Json, type Session } from '../api.js';
import { ConfirmButton, errorText, formatTime, Page, Show, useLoad } from '../ui.js';

/** The permission codes grouped by what they are about (`ADM_BUILDINGBLOCK_LIST` → BUILDINGBLOCK). */
export function permissionGroups(codes: Iterable<string>): [string, string[]][] {
  const groups = new Map<string, string[]>();
  for (const code of codes) {
    const resource = code.replace(/^(ADM|MANAGED)_/, '').replace(/_(LIST|SAVE|DELETE|IMPORT)$/, '');
    groups.set(resource, [...(groups.get(resource) ?? []), code]);
  }
  return [...groups.entries()].sort(([a], [b]) => a.localeCompare(b));
}

/** The secret of a key, shown once, right after it was made or rotated. */
function SecretNotice({ created, onDone }: { created: Json; onDone(): void }) {
  const notice = useRef<HTMLDivElement>(null);
  // The form that made the key is further down: bring the secret into view and to screen readers.
  useEffect(() => notice.current?.focus(), [created]);
  return (
    <div class="notice" role="alert" data-testid="secret-notice" ref={notice} tabIndex={-1}>
      <h2>Copy the secret of “{created.spec.displayName}” now</h2>
      <p>It is shown only this once. Store it where your pipeline or runner reads it.</p>
      <dl class="facts">
        <div>
          <dt>Client id</dt>
          <dd>
            <code>{created.status.clientId}</code>
          </dd>
        </div>
        <div>
          <dt>Client secret</dt>
          <dd>
            <code data-testid="client-secret">{created.status.clientSecret}</code>
          </dd>
        </div>
      </dl>
      <button type="button" onClick={onDone}>
        I have stored it
      </button>
    </div>
  );
}

function CreateKey({ session, onCreated }: { session: Session; onCreated(key: Json): void }) {
  const { identity } = session;
  const grantable = [...PERMISSION_CODES].filter((code) => identity.permissions === undefined || identity.type === 'apiUser' || identity.permissions.includes(code)).sort();
  const [name, setName] = useState('');
  const [workspace, setWorkspace] = useState(identity.workspace ?? '');
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const [error, setError] = useState<string>();
  const toggle = (code: string, on: boolean) => {
    const next = new Set(chosen);
    if (on) next.add(code);
    else next.delete(code);
    setChosen(next);
  };
  const submit = async (event: Event) => {
    event.preventDefault();
    setError(undefined);
    try {
      const created = await session.request<Json>('POST', PATHS.apiKeys, { accept: MEDIA.apiKey, body: { metadata: { ownedByWorkspace: workspace.trim() }, spec: { displayName: name.trim(), permissions: [...chosen].sort() } } });
      setName('');
      setChosen(new Set());
      onCreated(created);
    } catch (failure) {
      setError(errorText(failure));
    }
  };
  return (
    <form class="create-key" onSubmit={(event) => void submit(event)}>
      <h2>Create an API key</h2>
      <label for="key-name">Name</label>
      <input id="key-name" required value={name} onInput={(event) => setName(event.currentTarget.value)} />
      <label for="key-workspace">Workspace</label>
      <input id="key-workspace" required value={workspace} readOnly={identity.workspace !== undefined && !identity.admin} onInput={(event) => setWorkspace(event.currentTarget.value)} />
      <fieldset class="permissions">
        <legend>Permissions (a key can grant only what it holds itself)</legend>
        {permissionGroups(grantable).map(([group, codes]) => (
          <div key={group} class="permission-group">
            <span class="group-name">{group}</span>
            {codes.map((code) => (
              <label key={code} class="inline">
                <input type="checkbox" name="permission" value={code} checked={chosen.has(code)} onChange={(event) => toggle(code, event.currentTarget.checked)} /> {code}
              </label>
            ))}
          </div>
        ))}
      </fieldset>
      {error ? (
        <p class="error" role="alert">
          {error}
        </p>
      ) : null}
      <button type="submit" class="primary">
        Create key
      </button>
    </form>
  );
}

export function KeysPage({ session }: { session: Session }) {
  const { workspace } = session.identity;
  const keys = useLoad(() => session.all<Json>(`${PATHS.apiKeys}${query({ workspaceIdentifier: session.identity.admin ? undefined : workspace })}`, MEDIA.apiKey, 'meshApiKeys'), [workspace]);
  const [secret, setSecret] = useState<Json>();
  const [error, setError] = useState<string>();
  const rotate = async (uuid: string) => {
    setError(undefined);
    try {
      setSecret(await session.request<Json>('POST', `${PATHS.apiKeys}/${uuid}/rotate-secret`, { accept: MEDIA.apiKey }));
    } catch (failure) {
      setError(errorText(failure));
    }
  };
  return (
    <Page title="API keys">
      {secret ? <SecretNotice created={secret} onDone={() => setSecret(undefined)} /> : null}
      {error ? (
        <p class="error" role="alert">
          {error}
        </p>
      ) : null}
      <Show loaded={keys}>
        {(all) =>
          all.length === 0 ? (
            <p class="empty">No API keys.</p>
          ) : (
            <div class="table-wrap" tabIndex={0} role="region" aria-label="API keys (scrolls sideways)">
              <table>
                <thead>
                  <tr>
                    <th scope="col">Key</th>
                    <th scope="col">Workspace</th>
                    <th scope="col">Permissions</th>
                    <th scope="col">Expires</th>
                    <th scope="col">Actions</th>
                  </tr>
                </thead>
                <tbody>
                  {all.map((key) => (
                    <tr key={key.metadata.uuid}>
                      <td>
                        {key.spec.displayName}
                        <div class="muted">
                          <code>{key.metadata.uuid}</code>
                        </div>
                      </td>
                      <td>{key.metadata.ownedByWorkspace}</td>
                      <td class="codes">{(key.spec.permissions as string[]).join(', ')}</td>
                      <td>{key.spec.expiresAt ? formatTime(key.spec.expiresAt) : 'never'}</td>
                      <td class="actions">
                        <ConfirmButton label="Rotate" question={`Rotate the secret of “${key.spec.displayName}”? The old secret stops working at once.`} confirmLabel="Rotate secret" onConfirm={() => rotate(key.metadata.uuid)} />
                        <ConfirmButton
                          label="Delete"
                          question={`Delete “${key.spec.displayName}”? Everything using it stops working.`}
                          confirmLabel="Delete key"
                          onConfirm={async () => {
                            await session.request('DELETE', `${PATHS.apiKeys}/${key.metadata.uuid}`);
                            keys.reload();
                          }}
                        />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )
        }
      </Show>
      <CreateKey
        session={session}
        onCreated={(created) => {
          setSecret(created);
          keys.reload();
        }}
      />
    </Page>
  );
}
