// The English catalogue's words of the home page and an organisation's settings: members, invitations, keys, single sign-on; the shared form parts.
export const orgSettings = {};
