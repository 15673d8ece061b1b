/** The field path a server message starts with (`spec.inputs.bucket.argument` of `spec.inputs.bucket.argument: required`), if any. */
export const messagePath = (message: string): string | undefined => /^([\w.[\]-]+?):\s/.exec(message)?.[1];

/** A message without the path it starts with: shown beside the field that path names. */
export const besideField = (message: string): string => {
  const path = messagePath(message);
  return path === undefined ? message : message.slice(path.length + 1).trim();
};

/**
 * Which form field a server message names. The API's 400 answers start with the field's path
 * (`spec.inputs.bucket.argument: required …`); a form maps path prefixes to its fields, and the most
 * specific prefix wins. Beside its field, the message loses the path the field already names
 * (`bucket.argument: required …` beside Inputs). Pure, so it is tested without a browser.
 */
export function placeMessage(message: string, fields: Record<string, string>): { field: string | undefined; text: string } {
  const path = messagePath(message);
  if (!path) return { field: undefined, text: message };
  const matching = Object.keys(fields).filter(
    (prefix) => path === prefix || path.startsWith(`${prefix}.`) || path.startsWith(`${prefix}[`),
  );
  const longest = matching.sort((a, b) => b.length - a.length)[0];
  if (longest === undefined) return { field: undefined, text: message };
  const rest = path.slice(longest.length).replace(/^\./, '');
  return { field: fields[longest], text: `${rest ? `${rest}: ` : ''}${message.slice(path.length + 1).trim()}` };
}

/** An error beside a field (by its form's name for it), or for the whole form (`form`). */
export type FormErrors = Record<string, string>;
