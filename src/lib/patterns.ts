import { RE2JS } from 're2js';

/**
 * Every pattern a user supplies (an input's `valueValidationRegex`, later tag definitions' regexes) is
 * compiled and run here, and nowhere else, on RE2 (re2js): matching takes time linear in the text, so
 * no pattern can stall the event loop (`^([a-z0-9]+)*$` against `"a"×30 + "!"` takes milliseconds,
 * not minutes). Patterns RE2 cannot express (backreferences, lookarounds) are refused when saved.
 * A match is a search, as JavaScript's `RegExp.test` is: anchor with `^…$` to match the whole text.
 */
const compiled = new Map<string, RE2JS>();

function compile(pattern: string): RE2JS {
  let regex = compiled.get(pattern);
  if (!regex) {
    regex = RE2JS.compile(pattern);
    if (compiled.size >= 1000) compiled.clear();
    compiled.set(pattern, regex);
  }
  return regex;
}

/** Why a pattern cannot be used, or undefined. */
export function patternProblem(pattern: string): string | undefined {
  try {
    compile(pattern);
    return undefined;
  } catch (error) {
    return `not a regular expression RE2 can run in linear time (${(error as Error).message})`;
  }
}

/** Whether `text` contains a match of `pattern` (a pattern accepted by `patternProblem`). */
export function matchesPattern(pattern: string, text: string): boolean {
  return compile(pattern).matcher(text).find();
}
