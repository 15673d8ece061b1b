import { useEffect, useRef, useState } from 'preact/hooks';
import { PERMISSION_CODES } from '../../auth/permissions.js';
import { MEDIA, PATHS, query, type Json, type Session } from '../api.js';
import { placeMessage, type FormErrors } from '../field-errors.js';
import { KEY_PRESETS, presetOf } from '../key-presets.js';
import { ConfirmButton, errorText, formatTime, Page, Show, useLoad } from '../ui.js';
import { useCreatableWorkspaces, WorkspaceSelect } from '../workspace-choice.js';

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
  const [copied, setCopied] = useState<string>();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(created.status.clientSecret as string);
      setCopied('Copied to the clipboard.');
    } catch {
      setCopied('The browser refused the clipboard: select the secret and copy it.');
    }
  };
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
      <div class="actions">
        <button type="button" class="primary" onClick={() => void copy()}>
          Copy secret
        </button>
        <button type="button" onClick={onDone}>
          I have stored it
        </button>
        <span role="status">{copied}</span>
      </div>
    </div>
  );
}

/** A key's permissions, collapsed to their count (and the preset they are, if they are one). */
function PermissionList({ codes }: { codes: string[] }) {
  const preset = presetOf(new Set(codes));
  return (
    <details>
      <summary>
        {codes.length} permission{codes.length === 1 ? '' : 's'}
        {preset ? ` (${preset.label})` : ''}
      </summary>
      <span>{codes.join(', ')}</span>
    </details>
  );
}

const KEY_FIELDS = { 'spec.displayName': 'name', 'metadata.ownedByWorkspace': 'workspace', 'spec.permissions': 'permissions' };

function CreateKey({ session, onCreated }: { session: Session; onCreated(key: Json): void }) {
  const { identity } = session;
  const grantable = [...PERMISSION_CODES]
    .filter((code) => identity.permissions === undefined || identity.type === 'apiUser' || identity.permissions.includes(code))
    .sort();
  const workspaces = useCreatableWorkspaces(session, 'APIKEY');
  const [name, setName] = useState('');
  const [workspace, setWorkspace] = useState(identity.workspace ?? '');
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const [preset, setPreset] = useState('custom');
  const [errors, setErrors] = useState<FormErrors>({});
  useEffect(() => {
    if (workspace === '' && workspaces.data?.length === 1) setWorkspace(workspaces.data[0]!);
  }, [workspaces.data]);
  const choose = (next: Set<string>) => {
    setChosen(next);
    setPreset(presetOf(next)?.id ?? 'custom');
  };
  const toggle = (code: string, on: boolean) => {
    const next = new Set(chosen);
    if (on) next.add(code);
    else next.delete(code);
    choose(next);
  };
  const usePreset = (id: string) => {
    setPreset(id);
    const found = KEY_PRESETS.find((candidate) => candidate.id === id);
    if (found) setChosen(new Set(found.permissions.filter((code) => grantable.includes(code))));
  };
  const submit = async (event: Event) => {
    event.preventDefault();
    setErrors({});
    try {
      const created = await session.request<Json>('POST', PATHS.apiKeys, {
        accept: MEDIA.apiKey,
        body: { metadata: { ownedByWorkspace: workspace.trim() }, spec: { displayName: name.trim(), permissions: [...chosen].sort() } },
      });
      setName('');
      choose(new Set());
      onCreated(created);
    } catch (failure) {
      const { field, text } = placeMessage(errorText(failure), KEY_FIELDS);
      setErrors({ [field ?? 'form']: text });
    }
  };
  const fieldError = (id: string) =>
    errors[id] ? (
      <p class="field-error" id={`key-${id}-error`}>
        {errors[id]}
      </p>
    ) : null;
  return (
    <form class="create-key" onSubmit={(event) => void submit(event)}>
      <h2>Create an API key</h2>
      <div class={errors.name ? 'field invalid' : 'field'}>
        <label for="key-name">Name</label>
        <input
          id="key-name"
          required
          value={name}
          aria-describedby={errors.name ? 'key-name-error' : undefined}
          onInput={(event) => (setName(event.currentTarget.value), setErrors(({ name: _fixed, ...rest }) => rest))}
        />
        {fieldError('name')}
      </div>
      <WorkspaceSelect
        id="key-workspace"
        choices={workspaces}
        value={workspace}
        error={errors.workspace}
        onChange={(chosenWorkspace) => (setWorkspace(chosenWorkspace), setErrors(({ workspace: _fixed, ...rest }) => rest))}
      />
      <fieldset>
        <legend>Role preset</legend>
        {KEY_PRESETS.map((candidate) => {
          const missing = candidate.permissions.filter((code) => !grantable.includes(code));
          return (
            <div key={candidate.id} class="preset">
              <label class="inline">
                <input
                  type="radio"
                  name="preset"
                  value={candidate.id}
                  checked={preset === candidate.id}
                  aria-describedby={`preset-${candidate.id}-grants`}
                  onChange={() => usePreset(candidate.id)}
                />
                <span>
                  <strong>{candidate.label}</strong>: {candidate.purpose}
                </span>
              </label>
              <p class="hint" id={`preset-${candidate.id}-grants`}>
                Grants {candidate.permissions.join(', ')}
                {missing.length > 0 ? `. You cannot grant ${missing.join(', ')}: left out.` : '.'}
              </p>
            </div>
          );
        })}
        <label class="inline">
          <input type="radio" name="preset" value="custom" checked={preset === 'custom'} onChange={() => setPreset('custom')} />
          <span>
            <strong>Custom</strong>: choose the permissions below
          </span>
        </label>
      </fieldset>
      <details class="permissions-picker" open={preset === 'custom'}>
        <summary>
          Permissions: {chosen.size} chosen
          {preset !== 'custom' ? ` (the ${KEY_PRESETS.find((candidate) => candidate.id === preset)?.label} preset)` : ''}
        </summary>
        <fieldset
          class={errors.permissions ? 'permissions field invalid' : 'permissions'}
          aria-describedby={errors.permissions ? 'key-permissions-error' : undefined}
        >
          <legend>Permissions (a key can grant only what it holds itself)</legend>
          {permissionGroups(grantable).map(([group, codes]) => (
            <div key={group} class="permission-group">
              <span class="group-name">{group}</span>
              {codes.map((code) => (
                <label key={code} class="inline">
                  <input
                    type="checkbox"
                    name="permission"
                    value={code}
                    checked={chosen.has(code)}
                    onChange={(event) => toggle(code, event.currentTarget.checked)}
                  />{' '}
                  {code}
                </label>
              ))}
            </div>
          ))}
        </fieldset>
      </details>
      {fieldError('permissions')}
      {errors.form ? (
        <p class="error" role="alert">
          {errors.form}
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
  const keys = useLoad(
    () =>
      session.all<Json>(
        `${PATHS.apiKeys}${query({ workspaceIdentifier: session.identity.admin ? undefined : workspace })}`,
        MEDIA.apiKey,
        'meshApiKeys',
      ),
    [workspace],
  );
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
                      <td class="codes">
                        <PermissionList codes={key.spec.permissions as string[]} />
                      </td>
                      <td>{key.spec.expiresAt ? formatTime(key.spec.expiresAt) : 'never'}</td>
                      <td class="actions">
                        <ConfirmButton
                          label="Rotate"
                          question={`Rotate the secret of “${key.spec.displayName}”? The old secret stops working at once.`}
                          confirmLabel="Rotate secret"
                          onConfirm={() => rotate(key.metadata.uuid)}
                        />
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
