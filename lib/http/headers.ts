// Headers a handler sets on its answer to say something the body's shape cannot.

/**
 * `X-Profiles-Incomplete: true`: with `includeUser`, some creators' profiles could not be fetched (no
 * provider configured, the provider failing, or the list budget spent), so their `related.user` is null.
 */
export const PROFILES_INCOMPLETE = "X-Profiles-Incomplete";

export const reportProfilesIncomplete = (setHeader: (name: string, value: string) => void) => () =>
  setHeader(PROFILES_INCOMPLETE, "true");
