import type { SentObject } from '../document.js';

/** Its collection path. */
export const PROJECTS_PATH = '/api/meshobjects/meshprojects';

/** The internal project: identified by workspace and name, `<workspace>.<project>` in URLs. */
export interface Project {
  workspace: string;
  name: string;
  paymentMethodIdentifier?: string;
  substitutePaymentMethodIdentifier?: string;
  /**
   * The payment method that pays now (computed on read): the payment method while it is live and not
   * expired, else the substitute while it is; undefined when neither.
   */
  activePaymentMethod?: string;
  createdOn: string;
  document: SentObject;
}

export type ProjectInput = Omit<Project, 'createdOn' | 'activePaymentMethod'>;

export const projectIdentifier = (project: Pick<Project, 'workspace' | 'name'>) => `${project.workspace}.${project.name}`;

/** `<workspace>.<project>` → its parts; undefined when it has another shape (it names no project). */
export function parseProjectIdentifier(id: string): { workspace: string; name: string } | undefined {
  const dot = id.indexOf('.');
  if (dot <= 0 || dot === id.length - 1) return undefined;
  return { workspace: id.slice(0, dot), name: id.slice(dot + 1) };
}
