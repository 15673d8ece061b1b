import { KINDS } from './kinds/registry.js';
import { UNSERVED_IMPORT_LIFECYCLE, UNSERVED_LIFECYCLE, VersionLifecycle } from './lib/versions.js';

/** The REST deprecation list (spec §9): the kinds' own entries and those of kinds not served here. */
export const REST_VERSIONS = new VersionLifecycle([...KINDS.flatMap((kind) => kind.lifecycle ?? []), ...UNSERVED_LIFECYCLE]);

/** The declarative import's deprecation list (spec §9, its second table). */
export const IMPORT_VERSIONS = new VersionLifecycle([...KINDS.flatMap((kind) => kind.importLifecycle ?? []), ...UNSERVED_IMPORT_LIFECYCLE]);
