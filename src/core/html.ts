// Text put into HTML that the service writes itself (the dashboard's page shell, the email reports'
// HTML part): every character that could open a tag, an entity or an attribute becomes an entity.
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
