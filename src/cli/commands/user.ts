// svc user add|list|password|email|reset-2fa|rm: dashboard users (their memberships: svc member).
import { flag, numericId, optional, required } from '../args.js';
import { seg } from '../client.js';
import { CliError } from '../errors.js';
import { formatFields, formatTable, time } from '../output.js';
import { passwordFromStdin, passwordFromTerminal } from '../password-input.js';
import type { Invocation, Noun } from '../types.js';
import type { User } from '../../core/management.js';

const newPassword = (inv: Invocation) => (flag(inv, 'password-stdin') ? passwordFromStdin() : passwordFromTerminal());

export const user: Noun = {
  name: 'user',
  summary: 'dashboard users: people who sign in to the dashboard',
  commands: [
    {
      verb: 'add',
      usage: 'svc user add --email E [--name N] [--password-stdin]',
      summary: 'create a user; the password (10 characters or more) is asked twice at the terminal, or read from standard input with --password-stdin',
      options: { email: { type: 'string' }, name: { type: 'string' }, 'password-stdin': { type: 'boolean' } },
      example: 'svc user add --email ana@example.com --name Ana',
      async run(inv) {
        const email = required(inv, 'email');
        const name = optional(inv, 'name');
        const password = await newPassword(inv);
        const created = await inv.client().request<User>('POST', '/users', { email, password, ...(name === undefined ? {} : { name }) });
        inv.out.result(created, () => formatFields([['id', created.id], ['email', created.email], ['name', created.name]]));
      },
    },
    {
      verb: 'list',
      usage: 'svc user list',
      summary: 'list users',
      example: 'svc user list',
      async run(inv) {
        const answer = await inv.client().request<{ users: User[] }>('GET', '/users');
        inv.out.result(answer, () => formatTable(['ID', 'EMAIL', 'NAME', 'CREATED'], answer.users.map((u) => [u.id, u.email, u.name, time(u.createdAt)])));
      },
    },
    {
      verb: 'password',
      usage: 'svc user password USER_ID [--password-stdin]',
      summary: "set a user's password (asked twice at the terminal, or read from standard input); the user's sessions end",
      args: ['USER_ID'],
      options: { 'password-stdin': { type: 'boolean' } },
      example: 'svc user password 3',
      async run(inv) {
        const id = numericId(inv, 'USER_ID', inv.positionals[0]!);
        await inv.client().request('PUT', `/users/${seg(id)}/password`, { password: await newPassword(inv) });
        inv.out.result({ id, passwordChanged: true }, () => `password of user ${id} changed; its sessions ended\n`);
      },
    },
    {
      verb: 'email',
      usage: 'svc user email USER_ID --email E',
      summary: "change a user's email: its sessions end, and single sign-on signs it in only once the user confirms the new email from its account page",
      args: ['USER_ID'],
      options: { email: { type: 'string' } },
      example: 'svc user email 3 --email ana@example.org',
      async run(inv) {
        const id = numericId(inv, 'USER_ID', inv.positionals[0]!);
        const changed = await inv.client().request<User>('PUT', `/users/${seg(id)}/email`, { email: required(inv, 'email') });
        inv.out.result(changed, () => `email of user ${id} is now ${changed.email}; its sessions ended\n`);
      },
    },
    {
      verb: 'reset-2fa',
      usage: 'svc user reset-2fa --email E',
      summary: "turn a user's two-factor sign-in off (a lost authenticator and lost recovery codes): the password alone signs in again",
      options: { email: { type: 'string' } },
      example: 'svc user reset-2fa --email ana@example.com',
      async run(inv) {
        const email = required(inv, 'email');
        const { users } = await inv.client().request<{ users: User[] }>('GET', '/users');
        const found = users.find((u) => u.email.toLowerCase() === email.trim().toLowerCase());
        if (!found) throw new CliError(`NOT_FOUND: no user has the email ${email}`);
        await inv.client().request('DELETE', `/users/${seg(found.id)}/2fa`);
        inv.out.result({ id: found.id, email: found.email, twoFactorReset: true }, () => `two-factor sign-in of ${found.email} (user ${found.id}) turned off\n`);
      },
    },
    {
      verb: 'rm',
      usage: 'svc user rm USER_ID',
      summary: 'delete a user: its memberships and sessions end at once',
      args: ['USER_ID'],
      example: 'svc user rm 3',
      async run(inv) {
        const id = numericId(inv, 'USER_ID', inv.positionals[0]!);
        await inv.client().request('DELETE', `/users/${seg(id)}`);
        inv.out.result({ deleted: id }, () => `deleted user ${id}\n`);
      },
    },
  ],
};
