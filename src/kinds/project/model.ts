import type { SentObject } from '../document.js';

/** The internal project: identified by workspace and name, `<workspace>.<project>` in URLs. */
export interface Project {
  workspace: string;
  name: string;
  paymentMethodIdentifier?: string;
  createdOn: string;
  document: SentObject;
}

export type ProjectInput = Omit<Project, 'createdOn'>;

export const projectIdentifier = (project: Pick<Project, 'workspace' | 'name'>) => `${project.workspace}.${project.name}`;
