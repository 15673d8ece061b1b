/**
 * The kinds as callers reach them: only through their authorized services. Routes, the import and the
 * index are given this and nothing else of the kinds. Each kind adds its own (`declare module` in its
 * `kind.ts`), under its manifest's name.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface AuthorizedServices {}

/**
 * The kinds' plain services (rules and storage, no notion of who asks), for the service itself:
 * bootstrap, the admin CLI, background sweeps and other kinds' services. Each kind adds its own
 * (`declare module` in its `kind.ts`).
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface PlainServices {}
