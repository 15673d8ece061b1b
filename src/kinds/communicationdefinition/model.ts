/** Its collection path. */
export const COMMUNICATION_DEFINITIONS_PATH = '/api/meshobjects/meshcommunicationdefinitions';
/** `spec.communication.type` values the OpenAPI documents. */
export const COMMUNICATION_TYPES = ['ACTION_REQUIRED', 'NOTIFICATION'] as const;
export type CommunicationType = (typeof COMMUNICATION_TYPES)[number];

/** Only an ACTION_REQUIRED communication is resolved: it is OPEN until then. */
export const isResolvable = (type: CommunicationType) => type === 'ACTION_REQUIRED';

/** What a definition says to the workspaces it is sent to. */
export interface CommunicationContent {
  title: string;
  /** Markdown. */
  message: string;
  /** `YYYY-MM-DD`. */
  dueDate: string;
  type: CommunicationType;
  skipEmailNotifications: boolean;
}

/**
 * Over every workspace: kept in the transactions that change communications (never counted per
 * read). Over one receiving workspace: counted per read, one grouped query per page.
 */
export interface CommunicationCounters {
  total: number;
  open: number;
  resolved: number;
}

/** The counters where no communication is counted. */
export const noCommunications = (): CommunicationCounters => ({ total: 0, open: 0, resolved: 0 });

/**
 * The internal communication definition (meshCommunicationDefinition v1-preview): a
 * message of the platform (admins write them), sent to workspaces as meshCommunications. It belongs
 * to no workspace; a workspace's keys see the definitions sent to it.
 */
export interface CommunicationDefinition {
  uuid: string;
  communication: CommunicationContent;
  /** Over every workspace, or over the caller's own where it only receives the definition. */
  counters: CommunicationCounters;
  createdOn: string;
}

/** A create names every field; an update may leave out `type` (the published PUT example does): it stays. */
export type CommunicationContentUpdate = Omit<CommunicationContent, 'type'> & { type?: CommunicationType };
