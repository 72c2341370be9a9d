// The English catalogue's words of a shared link's page.
export const share = {};
