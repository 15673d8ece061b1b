import { styleText } from 'node:util';
import { stringify } from 'yaml';
import { displayWidth, inertJson, RAW_IN_DATA, unicodeEscape, visible } from './terminal.js';

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

/**
 * Columns padded to their widest cell, two spaces apart (as kubectl prints them). Cells are made
 * visible first and measured in terminal columns (a wide character or an emoji takes two).
 */
export function renderTable(headers: readonly string[], rows: readonly (readonly string[])[], style: TableStyle = {}): string {
  const shown = rows.map((row) => row.map(visible));
  const widths = headers.map((header, index) => Math.max(displayWidth(header), ...shown.map((row) => displayWidth(row[index]!))));
  const line = (cells: readonly string[], styled: (text: string, index: number) => string) =>
    cells
      .map((text, index) => `${styled(text, index)}${index === cells.length - 1 ? '' : ' '.repeat(widths[index]! - displayWidth(text))}`)
      .join('  ')
      .trimEnd();
  const header = style.header ?? ((text: string) => text);
  const cellStyle = style.cell ?? ((_header: string, text: string) => text);
  return [line(headers, header), ...shown.map((row) => line(row, (text, index) => (text === '' ? text : cellStyle(headers[index]!, text))))]
    .map((text) => `${text}\n`)
    .join('');
}

/**
 * YAML that shows every control character escaped (`\e`, `\u202e`): the same data, inert on a
 * terminal. YAML escapes C0 itself; C1 and bidi characters only double-quoted strings can escape.
 */
function inertYaml(data: unknown): string {
  const plain = stringify(data);
  if (plain.search(RAW_IN_DATA) === -1) return plain;
  return stringify(data, { defaultStringType: 'QUOTE_DOUBLE', defaultKeyType: 'QUOTE_DOUBLE' }).replace(RAW_IN_DATA, unicodeEscape);
}

/**
 * Objects for scripts: one object as itself, several as an array (JSON) or a document stream (YAML).
 * The same data, with control characters in escaped form only (they may reach a terminal).
 */
export function renderData(format: 'json' | 'yaml', data: unknown, single: boolean): string {
  if (format === 'json') return `${inertJson(JSON.stringify(data, null, 2))}\n`;
  if (single) return inertYaml(data);
  return (data as unknown[]).map((item) => `---\n${inertYaml(item)}`).join('');
}
