// The English catalogue's words of the goals and funnels pages.
export const goals = {};
