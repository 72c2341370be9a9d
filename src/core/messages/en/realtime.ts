// The English catalogue's words of the realtime page.
export const realtime = {};
