// A session ends after 30 minutes without an event (docs/api.md): shared by collection and by the
// rollups, which must not close a day whose last sessions may still go on.
export const SESSION_GAP_MS = 30 * 60_000;
