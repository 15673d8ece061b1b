/** A meshGadget: a small kind the tests declare through a manifest alone, owned by a workspace. */
export interface Gadget {
  name: string;
  workspace: string;
  displayName: string;
  color?: string;
  createdOn: string;
}
export type GadgetInput = Omit<Gadget, 'createdOn'>;

export const GADGETS_PATH = '/api/meshobjects/meshgadgets';
