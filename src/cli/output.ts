import { styleText } from 'node:util';
import { stringify } from 'yaml';

export const OUTPUT_FORMATS = ['table', 'wide', 'json', 'yaml'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/** Colours only for a terminal that has them (`hasColors` honours NO_COLOR, FORCE_COLOR and TERM). */
export function colours(stream: NodeJS.WriteStream): (format: Parameters<typeof styleText>[0], text: string) => string {
  const enabled = stream.isTTY === true && stream.hasColors();
  return (format, text) => (enabled ? styleText(format, text) : text);
}

/** A value at a dotted path (`spec.targetRef.kind`, `subjects.0.name`), or undefined. */
export function valueAt(object: unknown, path: string): unknown {
  let value = object;
  for (const key of path.split('.')) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

/** A cell: scalars as they are, anything else as compact JSON, nothing as "". */
export function cell(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

export interface TableStyle {
  header?: (text: string) => string;
  /** Styles a cell by its column header (after padding is measured, so colours do not shift columns). */
  cell?: (header: string, text: string) => string;
}

/** Columns padded to their widest cell, two spaces apart (as kubectl prints them). */
export function renderTable(headers: readonly string[], rows: readonly (readonly string[])[], style: TableStyle = {}): string {
  const widths = headers.map((header, index) => Math.max(header.length, ...rows.map((row) => row[index]!.length)));
  const line = (cells: readonly string[], styled: (text: string, index: number) => string) =>
    cells
      .map((text, index) => `${styled(text, index)}${index === cells.length - 1 ? '' : ' '.repeat(widths[index]! - text.length)}`)
      .join('  ')
      .trimEnd();
  const header = style.header ?? ((text: string) => text);
  const cellStyle = style.cell ?? ((_header: string, text: string) => text);
  return [line(headers, header), ...rows.map((row) => line(row, (text, index) => (text === '' ? text : cellStyle(headers[index]!, text))))].map((text) => `${text}\n`).join('');
}

/** Objects for scripts: one object as itself, several as an array (JSON) or a document stream (YAML). */
export function renderData(format: 'json' | 'yaml', data: unknown, single: boolean): string {
  if (format === 'json') return `${JSON.stringify(data, null, 2)}\n`;
  if (single) return stringify(data);
  return (data as unknown[]).map((item) => `---\n${stringify(item)}`).join('');
}
