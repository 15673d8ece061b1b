/**
 * Terraform's checks on a provider, applied to decoded answers (the provider's resources map the
 * client structs to state one to one, so comparing decoded structs is comparing state).
 *
 * - `expectSentComesBack(sent, answered, rules)`: after apply, every planned attribute that is not
 *   computed must come back with the same value, else Terraform fails with "Provider produced
 *   inconsistent result after apply". `sent` is what was sent, decoded through the same Go type
 *   (`planned(type, body)`), so an attribute left out of the request is its zero value (null for
 *   pointers, slices and maps) and must come back so: null and absent are the same to Go, null and
 *   `[]` are not.
 * - `expectNoDiff(state, refreshed, rules)`: "plan again" after a read is empty.
 * - `expectImportEqual(state, imported, ignore)`: ImportStateVerify: every attribute, computed ones
 *   included, equal after an import by id, except those listed (write-only values such as secrets'
 *   plaintext).
 * - `CompareRules`: `ignore` lists attribute paths Terraform does not compare (computed attributes,
 *   fields the schema does not have); `sets` lists the set-typed ones, compared in any order. A
 *   path is dot-separated JSON names from the object's root, `*` matches any map key or list index,
 *   and a path covers everything below it: `metadata.uuid`, `spec.inputs.*.valueType`, `status`.
 * - `resourceFlow(flow)`: create → read → plan again (no change) → update → read → import (read by
 *   id, all attributes equal) → destroy → read is gone, each step checked as above.
 * - `Findings`: collects the failures of several such checks (`findings.check(() => …)`) so one
 *   inconsistency does not hide the next; `findings.done()` throws them all together.
 *
 * `planned` decodes the request body, which is what the plan holds except for schema defaults that
 * the provider leaves out of the body (an omitempty empty set is `[]` in the plan, absent on the
 * wire): set those on the planned value.
 */
import { decodeGo, type GoType } from './go-json.js';
import { goJsonEncode } from './provider-client.js';

export interface CompareRules {
  ignore?: readonly string[];
  sets?: readonly string[];
}

type Path = (string | number)[];

const matches = (pattern: string, path: Path) => {
  const segments = pattern.split('.');
  return segments.length <= path.length && segments.every((segment, i) => segment === '*' || segment === String(path[i]));
};
const exactly = (pattern: string, path: Path) => pattern.split('.').length === path.length && matches(pattern, path);

const show = (path: Path) => path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${p}`)).join('') || '.';
const value = (v: unknown) => (v === undefined ? 'absent' : JSON.stringify(v));

/** Every difference between `expected` and `actual` outside the ignored paths, as "<path>: was X, but now Y". */
export function differences(expected: unknown, actual: unknown, rules: CompareRules, path: Path = []): string[] {
  if ((rules.ignore ?? []).some((pattern) => matches(pattern, path))) return [];
  const was = `${show(path)}: was ${value(expected)}, but now ${value(actual)}`;
  if ((rules.sets ?? []).some((pattern) => exactly(pattern, path)) && Array.isArray(expected) && Array.isArray(actual)) {
    // A set: each element must be found once, in any order (nested rules apply within elements).
    const remaining = [...actual];
    for (const element of expected) {
      const index = remaining.findIndex((candidate) => differences(element, candidate, rules, [...path, 0]).length === 0);
      if (index < 0) return [was];
      remaining.splice(index, 1);
    }
    return remaining.length === 0 ? [] : [was];
  }
  if (Array.isArray(expected) && Array.isArray(actual)) {
    if (expected.length !== actual.length) return [was];
    return expected.flatMap((element, i) => differences(element, actual[i], rules, [...path, i]));
  }
  if (isObject(expected) && isObject(actual)) {
    const keys = new Set([...Object.keys(expected), ...Object.keys(actual)]);
    return [...keys].flatMap((key) => differences(expected[key], actual[key], rules, [...path, key]));
  }
  return Object.is(expected, actual) ? [] : [was];
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** What Terraform planned: the request body as the provider's struct decodes it. */
export const planned = <M>(type: GoType, body: unknown): M => decodeGo<M>(type, goJsonEncode(body, false));

export function expectSentComesBack(sent: unknown, answered: unknown, rules: CompareRules = {}, resource = 'the resource'): void {
  const found = differences(sent, answered, rules);
  if (found.length > 0) throw new Error(`Provider produced inconsistent result after apply: when applying changes to ${resource}, the provider produced an unexpected new value:\n  ${found.join('\n  ')}`);
}

export function expectNoDiff(state: unknown, refreshed: unknown, rules: CompareRules = {}, resource = 'the resource'): void {
  const found = differences(state, refreshed, rules);
  if (found.length > 0) throw new Error(`plan after refresh is not empty for ${resource}:\n  ${found.join('\n  ')}`);
}

export function expectImportEqual(state: unknown, imported: unknown, ignore: readonly string[] = [], resource = 'the resource'): void {
  const found = differences(state, imported, { ignore });
  if (found.length > 0) throw new Error(`ImportStateVerify attributes not equivalent for ${resource}:\n  ${found.join('\n  ')}`);
}

export interface ResourceFlow<M> {
  /** The resource's name, for messages (e.g. `meshstack_building_block_definition`). */
  resource: string;
  /** Computed and schema-less attributes, and sets. */
  rules: CompareRules;
  /** Attributes ImportStateVerify ignores (the provider's acceptance tests list them). */
  importIgnore?: readonly string[];
  create(): Promise<{ sent: M; state: M }>;
  read(state: M): Promise<M | null>;
  update?(state: M): Promise<{ sent: M; state: M }>;
  /** The import's read (ImportState then Read); the plain read when not given. */
  importRead?(state: M): Promise<M | null>;
  destroy(state: M): Promise<void>;
  /** Whether a read after destroy shows the object gone; null (404) when not given. */
  gone?(read: M | null): boolean;
}

/** Runs the whole flow and returns the final state before destroy. */
export async function resourceFlow<M>(flow: ResourceFlow<M>): Promise<M> {
  const { resource, rules } = flow;
  const applyAndRefresh = async (step: 'create' | 'update', apply: () => Promise<{ sent: M; state: M }>) => {
    const { sent, state } = await apply();
    expectSentComesBack(sent, state, rules, `${resource} (${step})`);
    const refreshed = await flow.read(state);
    if (refreshed === null) throw new Error(`${resource}: read after ${step} found nothing: Terraform would drop it from state`);
    expectSentComesBack(sent, refreshed, rules, `${resource} (refresh after ${step})`);
    expectNoDiff(state, refreshed, { ignore: rules.ignore ?? [], sets: rules.sets ?? [] }, resource);
    return refreshed;
  };
  let state = await applyAndRefresh('create', flow.create);
  if (flow.update) {
    const current = state;
    state = await applyAndRefresh('update', () => flow.update!(current));
  }
  const imported = await (flow.importRead ?? flow.read)(state);
  if (imported === null) throw new Error(`${resource}: import found nothing`);
  expectImportEqual(state, imported, flow.importIgnore, resource);
  await flow.destroy(state);
  const after = await flow.read(state);
  if (!(flow.gone ?? ((read: M | null) => read === null))(after)) throw new Error(`${resource}: still there after destroy: ${JSON.stringify(after)}`);
  return state;
}

/** Consistency failures gathered across the steps of one flow, thrown together at the end. */
export class Findings {
  private readonly failures: string[] = [];

  check(assertion: () => void): void {
    try {
      assertion();
    } catch (error) {
      this.failures.push((error as Error).message);
    }
  }

  done(): void {
    if (this.failures.length > 0) throw new Error(this.failures.join('\n'));
  }
}
