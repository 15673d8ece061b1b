/**
 * Every pattern a user supplies (an input's `valueValidationRegex`) is compiled and run here, and
 * nowhere else: one place decides the engine.
 */
const compiled = new Map<string, RegExp>();

/** Why a pattern cannot be used, or undefined. */
export function patternProblem(pattern: string): string | undefined {
  try {
    new RegExp(pattern);
    return undefined;
  } catch (error) {
    return `not a valid regular expression (${(error as Error).message})`;
  }
}

/** Whether `text` matches `pattern` (a pattern accepted by `patternProblem`). */
export function matchesPattern(pattern: string, text: string): boolean {
  let regex = compiled.get(pattern);
  if (!regex) {
    regex = new RegExp(pattern);
    if (compiled.size >= 1000) compiled.clear();
    compiled.set(pattern, regex);
  }
  return regex.test(text);
}
