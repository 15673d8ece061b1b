import { useEffect, useState } from 'preact/hooks';
import { MEDIA, PATHS, query, type Json, type Session } from '../api.js';
import { placeMessage, type FormErrors } from '../field-errors.js';
import { errorText, go, Page, Show, useLoad } from '../ui.js';
import { useCreatableWorkspaces, WorkspaceSelect } from '../workspace-choice.js';
import { InputsTable } from './definition.js';

/** The implementations a version may have (the API's `implementation.type`). */
const IMPLEMENTATION_TYPES = ['manual', 'terraform', 'githubWorkflows', 'gitlabPipeline', 'azureDevOpsPipeline'] as const;

/** A labelled text field with its hint, or the error the form or the server gave for it, beside it. */
function TextField(props: {
  id: string;
  label: string;
  value: string;
  onInput(value: string): void;
  error?: string | undefined;
  hint?: string;
  rows?: number;
  required?: boolean;
  code?: boolean;
}) {
  const { id, label, value, onInput, error, hint, rows, required, code } = props;
  const described = [hint ? `${id}-help` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  const common = {
    id,
    value,
    required,
    'aria-invalid': error ? ('true' as const) : undefined,
    'aria-describedby': described,
    class: code ? 'code' : undefined,
  };
  return (
    <div class={error ? 'field invalid' : 'field'}>
      <label for={id}>
        {label} {required ? <span class="required">(required)</span> : null}
      </label>
      {rows ? (
        <textarea {...common} rows={rows} spellcheck={!code} onInput={(event) => onInput(event.currentTarget.value)} />
      ) : (
        <input {...common} onInput={(event) => onInput(event.currentTarget.value)} />
      )}
      {error ? (
        <p class="field-error" id={`${id}-error`}>
          {error}
        </p>
      ) : null}
      {hint ? (
        <p class="hint" id={`${id}-help`}>
          {hint}
        </p>
      ) : null}
    </div>
  );
}

/** After a refusal, the first field in error takes the focus (and scrolls into view) so its message is read. */
function useFocusOnErrors(errors: FormErrors): void {
  useEffect(() => {
    if (Object.keys(errors).length === 0) return;
    const invalid =
      document.querySelector<HTMLElement>('main form [aria-invalid="true"]') ?? document.querySelector<HTMLElement>('main form .error');
    invalid?.focus();
    invalid?.scrollIntoView({ block: 'center' });
  }, [errors]);
}

/** The form's values and errors: editing a field drops the error shown beside it. */
function useFormState<T extends Record<string, string>>(initial: T) {
  const [form, setForm] = useState(initial);
  const [errors, setErrors] = useState<FormErrors>({});
  useFocusOnErrors(errors);
  const set =
    (field: keyof T & string, errorField: string = field) =>
    (value: string) => {
      setForm((previous) => ({ ...previous, [field]: value }));
      setErrors((previous) => {
        const { [errorField]: _dropped, ...rest } = previous;
        return rest;
      });
    };
  return { form, set, errors, setErrors };
}

function FormError({ errors }: { errors: FormErrors }) {
  return errors.form ? (
    <p class="error" role="alert">
      {errors.form}
    </p>
  ) : null;
}

/** A server refusal placed beside the field its message names (the whole form's otherwise). */
function placed(failure: unknown, fields: Record<string, string>): FormErrors {
  const { field, text } = placeMessage(errorText(failure), fields);
  return { [field ?? 'form']: text };
}

const DEFINITION_FIELDS = {
  metadata: 'workspace',
  'metadata.ownedByWorkspace': 'workspace',
  'spec.displayName': 'displayName',
  'spec.description': 'description',
  'spec.targetType': 'targetType',
  'spec.supportedPlatforms': 'supportedPlatforms',
  'spec.readme': 'readme',
};

/** A new definition: its workspace and what the marketplace shows; version 1 starts as an empty draft. */
export function NewDefinitionPage({ session }: { session: Session }) {
  const workspaces = useCreatableWorkspaces(session, 'BUILDINGBLOCKDEFINITION');
  const { form, set, errors, setErrors } = useFormState({
    workspace: session.identity.workspace ?? '',
    displayName: '',
    description: '',
    targetType: 'WORKSPACE_LEVEL',
    supportedPlatforms: '',
    readme: '',
  });
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (form.workspace === '' && workspaces.data?.length === 1) set('workspace')(workspaces.data[0]!);
  }, [workspaces.data]);
  const submit = async (event: Event) => {
    event.preventDefault();
    setErrors({});
    setBusy(true);
    const platforms = form.supportedPlatforms.split(/[\s,]+/).filter(Boolean);
    const spec = {
      displayName: form.displayName.trim(),
      description: form.description.trim(),
      targetType: form.targetType,
      ...(platforms.length > 0 ? { supportedPlatforms: platforms } : {}),
      ...(form.readme.trim() ? { readme: form.readme } : {}),
    };
    try {
      const created = await session.request<Json>('POST', PATHS.definitions, {
        accept: MEDIA.definition,
        body: { kind: 'meshBuildingBlockDefinition', metadata: { ownedByWorkspace: form.workspace }, spec },
      });
      go(`/platform/${encodeURIComponent(created.metadata.uuid as string)}/edit`);
    } catch (failure) {
      setErrors(placed(failure, DEFINITION_FIELDS));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Page title="New definition">
      <p class="muted">
        What the marketplace shows of it. Version 1 starts as a draft you describe next: its inputs, outputs and implementation.
      </p>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <WorkspaceSelect
          id="definition-workspace"
          choices={workspaces}
          value={form.workspace}
          error={errors.workspace}
          onChange={set('workspace')}
        />
        <TextField
          id="definition-displayName"
          label="Name"
          required
          value={form.displayName}
          onInput={set('displayName')}
          error={errors.displayName}
        />
        <TextField
          id="definition-description"
          label="Description"
          rows={2}
          value={form.description}
          onInput={set('description')}
          error={errors.description}
          hint="One or two sentences for the marketplace card."
        />
        <div class={errors.targetType ? 'field invalid' : 'field'}>
          <label for="definition-targetType">Built for</label>
          <select
            id="definition-targetType"
            value={form.targetType}
            aria-invalid={errors.targetType ? 'true' : undefined}
            aria-describedby={errors.targetType ? 'definition-targetType-error' : undefined}
            onChange={(event) => set('targetType')(event.currentTarget.value)}
          >
            <option value="WORKSPACE_LEVEL">Workspaces (WORKSPACE_LEVEL)</option>
            <option value="TENANT_LEVEL">Tenants of platforms (TENANT_LEVEL)</option>
          </select>
          {errors.targetType ? (
            <p class="field-error" id="definition-targetType-error">
              {errors.targetType}
            </p>
          ) : null}
        </div>
        {form.targetType === 'TENANT_LEVEL' ? (
          <TextField
            id="definition-supportedPlatforms"
            label="Platform types"
            required
            value={form.supportedPlatforms}
            onInput={set('supportedPlatforms')}
            error={errors.supportedPlatforms}
            hint="The platform types whose tenants it serves, separated by commas (e.g. AZURE, AWS, CUSTOM)."
          />
        ) : null}
        <TextField
          id="definition-readme"
          label="Readme (Markdown)"
          rows={6}
          code
          value={form.readme}
          onInput={set('readme')}
          error={errors.readme}
        />
        <FormError errors={errors} />
        <button type="submit" class="primary" disabled={busy}>
          Create definition
        </button>
      </form>
    </Page>
  );
}

/** A value as the editor shows it: indented JSON without the `null`s the answer fills in. */
const pretty = (value: unknown) => JSON.stringify(value ?? {}, (_key, inner: unknown) => (inner === null ? undefined : inner), 2);

/** The JSON object typed into a field, or the reason it is not one. */
function parseObject(text: string, what: string): { value: Json } | { error: string } {
  try {
    const value: unknown = JSON.parse(text.trim() === '' ? '{}' : text);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return { error: `${what} must be a JSON object ({ … })` };
    return { value: value as Json };
  } catch (failure) {
    return { error: `${what} is not valid JSON: ${(failure as Error).message}` };
  }
}

const VERSION_FIELDS = {
  'spec.inputs': 'inputs',
  'spec.outputs': 'outputs',
  'spec.implementation': 'implementation',
  'spec.runnerRef': 'implementation',
  'spec.readme': 'readme',
};

async function loadDraft(session: Session, uuid: string) {
  const [definition, versions] = await Promise.all([
    session.get<Json>(`${PATHS.definitions}/${encodeURIComponent(uuid)}`, MEDIA.definition),
    session.all<Json>(
      `${PATHS.versions}${query({ buildingBlockDefinitionUuid: uuid })}`,
      MEDIA.version,
      'meshBuildingBlockDefinitionVersions',
    ),
  ]);
  const draft = versions.find((version) => version.spec.state === 'DRAFT');
  return { definition, draft };
}

function DraftForm({ session, definition, draft }: { session: Session; definition: Json; draft: Json }) {
  const spec = draft.spec as Json;
  const type = spec.implementation?.type ?? 'manual';
  const { form, set, errors, setErrors } = useFormState({
    type: type as string,
    settings: type === 'manual' ? '' : pretty(spec.implementation?.[type]),
    inputs: pretty(spec.inputs),
    outputs: pretty(spec.outputs),
    readme: (definition.spec.readme as string | undefined) ?? '',
  });
  const [busy, setBusy] = useState(false);
  const inputs = parseObject(form.inputs, 'Inputs');
  const outputs = parseObject(form.outputs, 'Outputs');
  const settings = form.type === 'manual' ? { value: {} } : parseObject(form.settings, 'The implementation settings');
  const save = async (event: Event) => {
    event.preventDefault();
    const local: FormErrors = {};
    if ('error' in inputs) local.inputs = inputs.error;
    if ('error' in outputs) local.outputs = outputs.error;
    if ('error' in settings) local.implementation = settings.error;
    setErrors(local);
    if ('error' in inputs || 'error' in outputs || 'error' in settings) return;
    setBusy(true);
    const implementation = form.type === 'manual' ? { type: 'manual' } : { type: form.type, [form.type]: settings.value };
    const withoutNulls = Object.fromEntries(Object.entries(spec).filter(([, value]) => value !== null));
    try {
      await session.request('PUT', `${PATHS.versions}/${encodeURIComponent(draft.metadata.uuid as string)}`, {
        accept: MEDIA.version,
        body: {
          apiVersion: 'v1-preview',
          kind: 'meshBuildingBlockDefinitionVersion',
          spec: { ...withoutNulls, implementation, inputs: inputs.value, outputs: outputs.value, state: 'DRAFT' },
        },
      });
      if (form.readme !== ((definition.spec.readme as string | undefined) ?? '')) {
        const { readme: _readme, ...definitionSpec } = Object.fromEntries(
          Object.entries(definition.spec as Json).filter(([, value]) => value !== null),
        );
        const { uuid, ownedByWorkspace, tags } = definition.metadata as Json;
        await session.request('PUT', `${PATHS.definitions}/${encodeURIComponent(uuid as string)}`, {
          accept: MEDIA.definition,
          body: {
            kind: 'meshBuildingBlockDefinition',
            metadata: { uuid, ownedByWorkspace, tags },
            spec: { ...definitionSpec, ...(form.readme.trim() ? { readme: form.readme } : {}) },
          },
        });
      }
      go(`/platform/${encodeURIComponent(definition.metadata.uuid as string)}`);
    } catch (failure) {
      setErrors(placed(failure, VERSION_FIELDS));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form onSubmit={(event) => void save(event)} noValidate>
      <div class={errors.implementation ? 'field invalid' : 'field'}>
        <label for="draft-implementation">Implementation</label>
        <select
          id="draft-implementation"
          value={form.type}
          aria-invalid={errors.implementation ? 'true' : undefined}
          aria-describedby={errors.implementation ? 'draft-implementation-error' : 'draft-implementation-help'}
          onChange={(event) => set('type', 'implementation')(event.currentTarget.value)}
        >
          {IMPLEMENTATION_TYPES.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </select>
        <p class="hint" id="draft-implementation-help">
          {form.type === 'manual'
            ? 'A platform operator (or your own runner) carries the block out by hand and reports its outputs.'
            : 'A runner of this type carries the block out with the settings below.'}
        </p>
        {form.type !== 'manual' ? (
          <>
            <label for="draft-implementation-settings">Settings of the {form.type} implementation (JSON)</label>
            <textarea
              id="draft-implementation-settings"
              class="code"
              rows={6}
              spellcheck={false}
              value={form.settings}
              aria-describedby={errors.implementation ? 'draft-implementation-error' : undefined}
              onInput={(event) => set('settings', 'implementation')(event.currentTarget.value)}
            />
          </>
        ) : null}
        {errors.implementation ? (
          <p class="field-error" id="draft-implementation-error">
            {errors.implementation}
          </p>
        ) : null}
      </div>
      <TextField
        id="draft-inputs"
        label="Inputs (JSON)"
        rows={12}
        code
        value={form.inputs}
        onInput={set('inputs')}
        error={errors.inputs}
        hint='By key: { "bucketName": { "displayName": "Bucket name", "type": "STRING", "assignmentType": "USER_INPUT" } }. Types: STRING, CODE, INTEGER, BOOLEAN, FILE, LIST, SINGLE_SELECT, MULTI_SELECT.'
      />
      {'value' in inputs && Object.keys(inputs.value).length > 0 ? (
        <details>
          <summary>How ordering people will see these inputs</summary>
          <InputsTable inputs={inputs.value as Record<string, Json>} />
        </details>
      ) : null}
      <TextField
        id="draft-outputs"
        label="Outputs (JSON)"
        rows={6}
        code
        value={form.outputs}
        onInput={set('outputs')}
        error={errors.outputs}
        hint='By key: { "bucketUrl": { "displayName": "Bucket URL", "type": "STRING", "assignmentType": "RESOURCE_URL" } }.'
      />
      <TextField
        id="draft-readme"
        label="Readme of the definition (Markdown)"
        rows={8}
        code
        value={form.readme}
        onInput={set('readme')}
        error={errors.readme}
        hint="Shown on the marketplace page; it belongs to the definition, not to one version."
      />
      <FormError errors={errors} />
      <p>
        <button type="submit" class="primary" disabled={busy}>
          Save draft
        </button>{' '}
        <a class="button" href={`#/platform/${encodeURIComponent(definition.metadata.uuid as string)}`}>
          Cancel
        </a>
      </p>
    </form>
  );
}

/** The draft version of a definition, edited field by field; released from the definition's page. */
export function DraftEditorPage({ session, uuid }: { session: Session; uuid: string }) {
  const data = useLoad(() => loadDraft(session, uuid), [uuid]);
  return (
    <Show loaded={data}>
      {({ definition, draft }) => (
        <Page
          title={
            draft
              ? `Edit ${definition.spec.displayName as string} version ${draft.spec.versionNumber as number}`
              : `${definition.spec.displayName as string}: no draft`
          }
        >
          {draft ? (
            <>
              <p class="muted">
                A draft changes until it is released. The server checks every field when you save; what it refuses is shown beside the
                field.
              </p>
              <DraftForm session={session} definition={definition} draft={draft} />
            </>
          ) : (
            <p class="empty">
              This definition has no draft. Start one on <a href={`#/platform/${encodeURIComponent(uuid)}`}>its page</a> with “New draft”.
            </p>
          )}
        </Page>
      )}
    </Show>
  );
}
