import { useMemo, useState } from 'preact/hooks';
import { ApiError, MEDIA, PATHS, query, type Json, type Session } from '../api.js';
import { besideField } from '../field-errors.js';
import {
  blockInputs,
  fieldOfMessage,
  formErrors,
  formFields,
  initialValues,
  typeLabel,
  type FormField,
  type FormValues,
} from '../input-form.js';
import { errorText, go, Page, Show, useLoad, FormSubmit } from '../ui.js';

interface OrderData {
  definition: Json;
  /** The version as the caller reads it: an offered one's inputs without implementation and secrets. */
  version: Json;
  versionUuid: string;
  targets: { value: string; label: string }[];
  /** For each definition this version depends on: the blocks that may be its parent. */
  parents: { definition: string; label: string; blocks: Json[] }[];
}

async function loadOrder(session: Session, definitionUuid: string, versionUuid: string | undefined): Promise<OrderData> {
  const definition = await session.get<Json>(`${PATHS.definitions}/${encodeURIComponent(definitionUuid)}`, MEDIA.definition);
  const chosen = versionUuid ?? (definition.status.latestReleasedVersionUuid as string);
  if (!chosen) throw new Error('This definition has no released version offered to you yet.');
  const version = await session.get<Json>(`${PATHS.versions}/${encodeURIComponent(chosen)}`, MEDIA.version);
  const tenantLevel = definition.spec.targetType === 'TENANT_LEVEL';
  const targets = tenantLevel
    ? (await session.all<Json>(PATHS.tenants, MEDIA.tenant, 'meshTenants')).map((t) => ({
        value: t.metadata.uuid as string,
        label: (t.status?.tenantName as string) ?? t.metadata.uuid,
      }))
    : (await session.all<Json>(PATHS.workspaces, MEDIA.workspace, 'meshWorkspaces')).map((w) => ({
        value: w.metadata.name as string,
        label: `${w.spec?.displayName ?? w.metadata.name} (${w.metadata.name})`,
      }));
  const dependencies: string[] = [
    ...(version.spec.dependencyDefinitionRefs ?? []).map((ref: Json) => ref.uuid),
    ...(version.spec.dependencyDefinitionUuids ?? []),
  ];
  const parents = await Promise.all(
    [...new Set(dependencies)].map(async (uuid) => {
      const parentDefinition = await session
        .get<Json>(`${PATHS.definitions}/${encodeURIComponent(uuid)}`, MEDIA.definition)
        .catch(() => undefined);
      const blocks = await session.all<Json>(`${PATHS.blocks}${query({ definitionUuid: uuid })}`, MEDIA.block, 'meshBuildingBlocks');
      return { definition: uuid, label: (parentDefinition?.spec.displayName as string) ?? uuid, blocks };
    }),
  );
  return { definition, version, versionUuid: chosen, targets, parents };
}

/** One input of a version as a form field: its control, type, default, hint and error. */
export function FieldControl({
  field,
  value,
  error,
  onChange,
}: {
  field: FormField;
  value: FormValues[string];
  error: string | undefined;
  onChange(value: FormValues[string]): void;
}) {
  const id = `input-${field.key}`;
  const described = [`${id}-help`, error ? `${id}-error` : ''].filter(Boolean).join(' ');
  const common = { id, name: field.key, 'aria-invalid': error ? true : undefined, 'aria-describedby': described, required: field.required };
  let control;
  switch (field.control) {
    case 'checkbox':
      control = (
        <input
          {...common}
          required={false}
          type="checkbox"
          checked={value === true}
          onChange={(event) => onChange(event.currentTarget.checked)}
        />
      );
      break;
    case 'select':
      control = (
        <select {...common} value={value as string} onChange={(event) => onChange(event.currentTarget.value)}>
          <option value="">Choose…</option>
          {field.options.map((option) => (
            <option key={option} value={option}>
              {option}
            </option>
          ))}
        </select>
      );
      break;
    case 'multiselect':
      control = (
        <select {...common} multiple onChange={(event) => onChange([...event.currentTarget.selectedOptions].map((option) => option.value))}>
          {field.options.map((option) => (
            <option key={option} value={option} selected={(value as string[]).includes(option)}>
              {option}
            </option>
          ))}
        </select>
      );
      break;
    case 'textarea':
    case 'list':
      control = (
        <textarea
          {...common}
          rows={field.control === 'list' ? 4 : 6}
          value={value as string}
          onInput={(event) => onChange(event.currentTarget.value)}
        />
      );
      break;
    case 'password':
      control = (
        <input
          {...common}
          type="password"
          autoComplete="off"
          value={value as string}
          onInput={(event) => onChange(event.currentTarget.value)}
        />
      );
      break;
    case 'number':
      control = <input {...common} type="number" value={value as string} onInput={(event) => onChange(event.currentTarget.value)} />;
      break;
    default:
      control = <input {...common} type="text" value={value as string} onInput={(event) => onChange(event.currentTarget.value)} />;
  }
  return (
    <div class={`field${error ? ' invalid' : ''}`}>
      <label for={id}>
        {field.label}
        {field.required ? <span class="required"> (required)</span> : null}
        {field.sensitive ? <span class="muted"> (sensitive: stored encrypted, shown only as a hash)</span> : null}
        {field.operatorOnly ? <span class="muted"> (platform operator)</span> : null}
      </label>
      {control}
      {field.control === 'list' ? <p class="muted">One entry per line.</p> : null}
      <p class="hint" id={`${id}-help`}>
        {[typeLabel(field.type), field.defaultText !== undefined ? `default ${field.defaultText}` : '', field.description, field.hint]
          .filter(Boolean)
          .join(' · ')}
      </p>
      {error ? (
        <p class="field-error" id={`${id}-error`} role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** Operators of a definition (its own workspace, admins) also supply its operator inputs. */
export const operates = (session: Session, definition: Json | undefined) =>
  session.identity.admin || (definition !== undefined && definition.metadata.ownedByWorkspace === session.identity.workspace);

function OrderForm({ session, data }: { session: Session; data: OrderData }) {
  const { definition, version } = data;
  const fields = useMemo(() => formFields(version.spec.inputs ?? {}, operates(session, definition)), [version]);
  const [values, setValues] = useState<FormValues>(() => initialValues(fields, version.spec.inputs ?? {}));
  const [displayName, setDisplayName] = useState('');
  const [target, setTarget] = useState(data.targets.length === 1 ? data.targets[0]!.value : '');
  const [parents, setParents] = useState<Record<string, string>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const tenantLevel = definition.spec.targetType === 'TENANT_LEVEL';

  const submit = async (event: Event) => {
    event.preventDefault();
    setFormError(undefined);
    const problems: Record<string, string> = formErrors(fields, values);
    if (!displayName.trim()) problems.displayName = 'Name is required';
    if (!target) problems.target = `Choose the ${tenantLevel ? 'tenant' : 'workspace'}`;
    for (const parent of data.parents)
      if (!parents[parent.definition]) problems[`parent-${parent.definition}`] = `Choose the ${parent.label} block this one builds on`;
    setErrors(problems);
    if (Object.keys(problems).length > 0) {
      document.getElementById(Object.keys(problems)[0] === 'displayName' ? 'order-name' : `input-${Object.keys(problems)[0]}`)?.focus();
      return;
    }
    const inputs = blockInputs(fields, values);
    setBusy(true);
    try {
      const block = await session.request<Json>('POST', PATHS.blocks, {
        accept: MEDIA.block,
        body: {
          apiVersion: 'v2-preview',
          kind: 'meshBuildingBlock',
          spec: {
            displayName: displayName.trim(),
            buildingBlockDefinitionVersionRef: { kind: 'meshBuildingBlockDefinitionVersion', uuid: data.versionUuid },
            targetRef: tenantLevel ? { kind: 'meshTenant', uuid: target } : { kind: 'meshWorkspace', identifier: target },
            inputs,
            parentBuildingBlocks: data.parents.map((parent) => ({
              buildingBlockUuid: parents[parent.definition]!,
              definitionUuid: parent.definition,
            })),
          },
        },
      });
      go(`/blocks/${block.metadata.uuid}`);
      // The block's page starts at its top, not where the long form was scrolled to.
      window.scrollTo(0, 0);
    } catch (failure) {
      const message = errorText(failure);
      const field =
        failure instanceof ApiError
          ? fieldOfMessage(
              failure.message,
              inputs.map((input) => input.key),
            )
          : undefined;
      if (field) {
        setErrors({ [field]: besideField(message) });
        document.getElementById(field === 'displayName' ? 'order-name' : field === 'target' ? 'order-target' : `input-${field}`)?.focus();
      } else setFormError(message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form class="order" noValidate onSubmit={(event) => void submit(event)}>
      <div class={`field${errors.displayName ? ' invalid' : ''}`}>
        <label for="order-name">
          Name<span class="required"> (required)</span>
        </label>
        <input
          id="order-name"
          required
          aria-invalid={errors.displayName ? true : undefined}
          aria-describedby={errors.displayName ? 'order-name-error' : undefined}
          value={displayName}
          onInput={(event) => setDisplayName(event.currentTarget.value)}
        />
        {errors.displayName ? (
          <p class="field-error" id="order-name-error" role="alert">
            {errors.displayName}
          </p>
        ) : null}
      </div>
      <div class={`field${errors.target ? ' invalid' : ''}`}>
        <label for="order-target">
          {tenantLevel ? 'Tenant' : 'Workspace'}
          <span class="required"> (required)</span>
        </label>
        <select
          id="order-target"
          required
          aria-invalid={errors.target ? true : undefined}
          aria-describedby={errors.target ? 'order-target-error' : undefined}
          value={target}
          onChange={(event) => setTarget(event.currentTarget.value)}
        >
          <option value="">{data.targets.length === 0 ? `No ${tenantLevel ? 'tenant' : 'workspace'} is visible to you` : 'Choose…'}</option>
          {data.targets.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
        {errors.target ? (
          <p class="field-error" id="order-target-error" role="alert">
            {errors.target}
          </p>
        ) : null}
      </div>
      {data.parents.map((parent) => {
        const key = `parent-${parent.definition}`;
        return (
          <div key={key} class={`field${errors[key] ? ' invalid' : ''}`}>
            <label for={`input-${key}`}>
              Builds on a {parent.label} block<span class="required"> (required)</span>
            </label>
            <select
              id={`input-${key}`}
              required
              aria-invalid={errors[key] || errors.parents ? true : undefined}
              aria-describedby={errors[key] || errors.parents ? `input-${key}-error` : undefined}
              value={parents[parent.definition] ?? ''}
              onChange={(event) => setParents({ ...parents, [parent.definition]: event.currentTarget.value })}
            >
              <option value="">{parent.blocks.length === 0 ? 'None exists yet: order one first' : 'Choose…'}</option>
              {parent.blocks.map((block) => (
                <option key={block.metadata.uuid} value={block.metadata.uuid}>
                  {block.spec.displayName} ({block.metadata.ownedByWorkspace})
                </option>
              ))}
            </select>
            {errors[key] || errors.parents ? (
              <p class="field-error" id={`input-${key}-error`} role="alert">
                {errors[key] ?? errors.parents}
              </p>
            ) : null}
          </div>
        );
      })}
      {fields.length > 0 ? (
        <fieldset>
          <legend>Inputs</legend>
          {fields.map((field) => (
            <FieldControl
              key={field.key}
              field={field}
              value={values[field.key]!}
              error={errors[field.key]}
              onChange={(value) => setValues({ ...values, [field.key]: value })}
            />
          ))}
        </fieldset>
      ) : null}
      <FormSubmit error={formError} busy={busy} label="Order building block" busyLabel="Ordering…" />
    </form>
  );
}

export function OrderPage({
  session,
  definitionUuid,
  versionUuid,
}: {
  session: Session;
  definitionUuid: string;
  versionUuid: string | undefined;
}) {
  const data = useLoad(() => loadOrder(session, definitionUuid, versionUuid), [definitionUuid, versionUuid]);
  return (
    <Show loaded={data}>
      {(order) => (
        <Page title={`Order ${order.definition.spec.displayName}`}>
          <p class="muted">Version {order.version.spec.versionNumber}. Fields marked required must be filled in.</p>
          <OrderForm session={session} data={order} />
        </Page>
      )}
    </Show>
  );
}
