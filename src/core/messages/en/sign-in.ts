// The English catalogue's words of the sign-in, set-up, invitation and account security pages.
export const signIn = {};
