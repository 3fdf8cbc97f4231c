// Text that comes from a chain or a profile (token names, symbols, descriptions, usernames, agent names) may hold
// bidi overrides (U+202E) and zero-width characters. Shown as stored, but isolated: in markup inside <bdi>, in a
// plain string (a label, a title) between U+2068 and U+2069, so an override cannot reorder the text around it.

/** The text between FIRST STRONG ISOLATE and POP DIRECTIONAL ISOLATE, the plain-text form of <bdi>. */
export const isolated = (text: string): string => `\u2068${text}\u2069`;
