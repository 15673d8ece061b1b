/**
 * Text from the server on a terminal. Names, messages and descriptions are written by other people
 * (another team's block, a runner's user message): a control character in them must be shown, never
 * interpreted, or a name could colour a fake "SUCCEEDED", retitle the window, hide a link, overwrite
 * a row (CR) or reverse what follows (bidi overrides). Every printer passes server text through
 * `visible`; only the CLI's own styling is added after it.
 */

/** C0 and DEL, C1, the bidi embeddings, overrides, isolates and marks, and the line/paragraph separators. */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/g;
const NAMED: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

function escape(character: string): string {
  const named = NAMED[character];
  if (named !== undefined) return named;
  const code = character.codePointAt(0)!;
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** The text with every control character written out (`\x1b`, `\r`, `\u202e`): inert on any terminal. */
export function visible(text: string): string {
  return text.replace(CONTROL, escape);
}

/** The control characters JSON.stringify and YAML's plain strings leave raw (C0 they escape). */
export const RAW_IN_DATA = /[\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/g;

/**
 * JSON for a terminal: JSON.stringify leaves C1 and bidi characters raw; written as `\uXXXX` they
 * are the same JSON value and inert. (They can only occur inside strings.)
 */
export function inertJson(json: string): string {
  return json.replace(RAW_IN_DATA, unicodeEscape);
}

/** `\uXXXX`: how JSON and YAML's double-quoted strings escape a character. */
export const unicodeEscape = (character: string) => `\\u${character.codePointAt(0)!.toString(16).padStart(4, '0')}`;

/** East Asian Wide and Fullwidth ranges (Unicode 15, UAX #11) outside the emoji, which take two columns. */
const WIDE: readonly (readonly [number, number])[] = [
  [0x1100, 0x115f],
  [0x2329, 0x232a],
  [0x2e80, 0x303e],
  [0x3041, 0x33ff],
  [0x3400, 0x4dbf],
  [0x4e00, 0x9fff],
  [0xa000, 0xa4cf],
  [0xa960, 0xa97f],
  [0xac00, 0xd7a3],
  [0xf900, 0xfaff],
  [0xfe10, 0xfe19],
  [0xfe30, 0xfe6f],
  [0xff00, 0xff60],
  [0xffe0, 0xffe6],
  [0x16fe0, 0x16fe4],
  [0x17000, 0x18cd5],
  [0x1aff0, 0x1b2fb],
  [0x1f200, 0x1f2ff],
  [0x20000, 0x2fffd],
  [0x30000, 0x3fffd],
];
const EMOJI = /\p{Emoji_Presentation}|\p{Extended_Pictographic}\ufe0f/u;
const ZERO_WIDTH = /^[\p{Mn}\p{Me}\p{Cf}]/u;
const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

function isWide(code: number): boolean {
  return WIDE.some(([from, to]) => code >= from && code <= to);
}

/**
 * The columns a (visible) text takes on a terminal, by grapheme: two for a wide character or an
 * emoji (a flag, a skin tone or a ZWJ family is one), none for a lone combining or format mark.
 */
export function displayWidth(text: string): number {
  // Plain ASCII, most cells, needs no segmenting.
  if (/^[\x20-\x7e]*$/.test(text)) return text.length;
  let width = 0;
  for (const { segment } of segmenter.segment(text)) {
    if (EMOJI.test(segment) || isWide(segment.codePointAt(0)!)) width += 2;
    else if (!ZERO_WIDTH.test(segment)) width += 1;
  }
  return width;
}
