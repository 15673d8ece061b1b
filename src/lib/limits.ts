/**
 * Every size limit of the API, in one place (README "Limits" under Reliability). What the spec states as a rule is
 * enforced with a 400 naming the field; long-by-nature values get a documented limit of their own.
 */

/** Every string the spec does not exempt is limited to 255 characters (spec §2.1, §8). */
export const MAX_STRING = 255;

/** Long text fields, in characters: large enough for their use, small enough that lists stay small. */
export const TEXT_LIMITS = {
  /** Descriptions of definitions, locations, platforms and inputs. */
  description: 4096,
  /** A definition's Markdown readme. */
  readme: 32_768,
  /** A communication definition's Markdown message. */
  communicationMessage: 32_768,
  /** A definition's symbol (a data URI of an image). */
  symbol: 65_536,
  /** A Terraform version's pre-run script. */
  preRunScript: 65_536,
  /** A runner's PEM certificate or public key. */
  publicKey: 65_536,
  /** One run step's user or system message (spec §8 advises 500; real runners send whole logs). */
  runMessage: 1024 * 1024,
} as const;

/**
 * At most this many definitions per list page (spec §8 lowers sizes above 350; a definition with its
 * readme and symbol can be ~100 KB, so its lists are lowered further): a marketplace page stays a few MB.
 */
export const DEFINITION_PAGE_MAX = 50;

/** Status sources per run (what reports may create). */
export const MAX_SOURCES_PER_RUN = 20;
