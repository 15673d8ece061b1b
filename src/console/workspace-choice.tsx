import { MEDIA, PATHS, type Json, type Session } from './api.js';
import { useLoad, type Loaded } from './ui.js';

/**
 * The workspaces the caller may create a `resource` (e.g. APIKEY) in: every workspace for API users
 * and holders of `ADM_<resource>_SAVE` (admins whose codes are unknown: the server decides), else the
 * one it acts in (a key, or a person's current workspace).
 */
export function useCreatableWorkspaces(session: Session, resource: string): Loaded<string[]> {
  const { identity } = session;
  const everywhere =
    identity.type === 'apiUser' ||
    (identity.permissions === undefined ? identity.admin : identity.permissions.includes(`ADM_${resource}_SAVE`));
  return useLoad(async () => {
    if (!everywhere) return identity.workspace ? [identity.workspace] : [];
    const all = await session.all<Json>(PATHS.workspaces, MEDIA.workspace, 'meshWorkspaces');
    return all.map((workspace) => workspace.metadata.name as string).sort();
  }, [identity.workspace, everywhere]);
}

/** A select of those workspaces, the caller's own chosen first; its error (a server message) beside it. */
export function WorkspaceSelect({
  id,
  choices,
  value,
  error,
  onChange,
}: {
  id: string;
  choices: Loaded<string[]>;
  value: string;
  error?: string | undefined;
  onChange(workspace: string): void;
}) {
  const options = choices.data ?? (value ? [value] : []);
  return (
    <div class={error ? 'field invalid' : 'field'}>
      <label for={id}>Workspace</label>
      <select
        id={id}
        required
        value={value}
        aria-invalid={error ? 'true' : undefined}
        aria-describedby={error ? `${id}-error` : `${id}-help`}
        onChange={(event) => onChange(event.currentTarget.value)}
      >
        {value === '' ? <option value="">Choose a workspace</option> : null}
        {options.map((name) => (
          <option key={name} value={name}>
            {name}
          </option>
        ))}
      </select>
      {error ? (
        <p class="field-error" id={`${id}-error`}>
          {error}
        </p>
      ) : (
        <p class="hint" id={`${id}-help`}>
          {choices.error
            ? `The workspace list could not be loaded: ${choices.error}`
            : options.length > 1
              ? 'The workspaces you may create in.'
              : 'The workspace you act in.'}
        </p>
      )}
    </div>
  );
}
