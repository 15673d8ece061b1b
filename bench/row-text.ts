/**
 * The least work that turns a stored block row into the API's v2-preview answer, for the floors of
 * `bench/read-ab.ts --floor`: one template per answer, the row's values written as they come, the
 * stored JSON of inputs, parents and outputs spliced in as text (never parsed), no model, no codec,
 * no schema serializer. It covers only rows the bench loads (no secret, no parent, no target as sent,
 * no deletion mark) and refuses any other row: a real encoder would have to do more for those, so
 * what this one costs is a lower bound of what any encoder of these answers costs.
 */
export interface BlockRow {
  uuid: string;
  workspace: string;
  tenant_uuid: string | null;
  version_uuid: string;
  display_name: string;
  status: string;
  force_purge: number;
  marked_for_deletion_on: string | null;
  latest_run_uuid: string | null;
  document: string;
  outputs: string;
  created_on: string;
}

const INPUTS = '{"inputs":';
const PARENTS = ',"parents":[]}';

/** One block's answer (GET) and list item: the API's bytes for a caller who may purge and list tenants. */
export function blockText(row: BlockRow, baseUrl: string): string {
  const { document, outputs } = row;
  if (
    row.tenant_uuid === null ||
    row.marked_for_deletion_on !== null ||
    !document.startsWith(INPUTS) ||
    !document.endsWith(PARENTS) ||
    document.includes('"isSensitive":true') ||
    outputs.includes('"isSensitive":true')
  )
    throw new Error(`block ${row.uuid}: not a row of the bench's data`);
  const inputs = document.slice(INPUTS.length, document.length - PARENTS.length);
  const self = `${baseUrl}/api/meshobjects/meshbuildingblocks/${row.uuid}`;
  return (
    `{"apiVersion":"v2-preview","kind":"meshBuildingBlock","metadata":{"uuid":"${row.uuid}","ownedByWorkspace":${JSON.stringify(row.workspace)},"createdOn":"${row.created_on}"},` +
    `"spec":{"displayName":${JSON.stringify(row.display_name)},"buildingBlockDefinitionVersionRef":{"kind":"meshBuildingBlockDefinitionVersion","uuid":"${row.version_uuid}"},` +
    `"targetRef":{"kind":"meshTenant","uuid":"${row.tenant_uuid}"},"inputs":${inputs},"parentBuildingBlocks":[],"parentBuildingBlockRefs":[]},` +
    `"status":{"status":"${row.status}","outputs":${outputs},"forcePurge":${row.force_purge ? 'true' : 'false'},"lifecycle":{"state":"ACTIVE"},` +
    `"latestRunUuid":${row.latest_run_uuid === null ? 'null' : `"${row.latest_run_uuid}"`},"latestDryRunUuid":null},` +
    `"_links":{"self":{"href":"${self}"},"forcePurge":{"href":"${self}/purge"},"meshtenant":{"href":"${baseUrl}/api/meshobjects/meshtenants/${row.tenant_uuid}"}}}`
  );
}

/** A first page of blocks with its HAL links and page numbers, as the API answers `?<query>&size=<size>`. */
export function pageText(rows: BlockRow[], total: number, size: number, query: string, baseUrl: string): string {
  const base = `${baseUrl}/api/meshobjects/meshbuildingblocks?${query}&size=${size}`;
  const pages = Math.ceil(total / size);
  let items = '';
  for (const row of rows) items += (items === '' ? '' : ',') + blockText(row, baseUrl);
  const next = pages > 1 ? `,"next":{"href":"${base}&page=1"}` : '';
  return (
    `{"_embedded":{"meshBuildingBlocks":[${items}]},"_links":{"self":{"href":"${base}"},"first":{"href":"${base}&page=0"}${next},` +
    `"last":{"href":"${base}&page=${Math.max(pages - 1, 0)}"}},"page":{"size":${size},"totalElements":${total},"totalPages":${pages},"number":0}}`
  );
}
