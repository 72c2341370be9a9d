// The English catalogue's words of the journeys page.
export const journeys = {};
