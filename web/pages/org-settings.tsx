// /orgs/:orgId/settings: the organisation's sites (add one, then land on its dashboard), API keys
// (created and shown once, revoked after confirmation) and, for owners, its members and
// invitations (the link shown once).
import { useEffect, useState } from 'preact/hooks';
import { call } from '../lib/client.js';
import { formatInstant } from '../lib/dates.js';
import { useAction, useRead, type Action } from '../lib/hooks.js';
import { fill } from '../lib/i18n.js';
import { Layout } from '../lib/layout.js';
import { mountPage, pathSegment, SignedIn } from '../lib/mount.js';
import { membershipOf } from '../lib/session.js';
import { frameText } from '../lib/text/frame.js';
import { orgSettingsText } from '../lib/text/org-settings.js';
import { ConfirmButton } from '../components/confirm.js';
import { ShownOnce } from '../components/shown-once.js';
import { ErrorText, LoadState } from '../components/feedback.js';
import { CheckboxField, SelectField, TextField } from '../components/fields.js';
import { FormSection } from '../components/form-section.js';
import { SignInSettings } from '../components/sign-in-settings.js';
import { RawDaysField } from '../components/raw-days.js';
import { WideTable } from '../components/table.js';
import { defaultTimezone, TimezoneField } from '../components/timezone.js';
import { siteDomainOf } from '../../src/entities/sites.js';
import type { ManagedInvitation, Member, CreatedInvitation, SessionView } from '../../src/core/management.js';
import { KEY_SCOPES, roleAtLeast, ROLES, SUGGESTED_RAW_DAYS, type KeyScope, type Role } from '../../src/core/vocabulary.js';

// Functions, not constants: an entry is read in the page's language when the options render.
const scopeOptions = () => KEY_SCOPES.map((scope): [KeyScope, string] => [scope, orgSettingsText.scopeOptions[scope]]);
const roleOptions = () => ROLES.map((role): [Role, string] => [role, orgSettingsText.roleOptions[role]]);
/** A name the user gave, quoted as the page's language quotes it. */
const quoted = (text: string) => fill(orgSettingsText.quoted, { text });

function Sites({ orgId }: { orgId: number }) {
  const sites = useRead(() => call('GET /manage/orgs/:orgId/sites', { params: { orgId } }), [orgId]);
  const [address, setAddress] = useState('');
  const [name, setName] = useState('');
  const [timezone, setTimezone] = useState('');
  const [rawDays, setRawDays] = useState<number>(SUGGESTED_RAW_DAYS);
  useEffect(() => {
    defaultTimezone().then((zone) => setTimezone((typed) => typed || zone));
  }, []);
  const add = useAction();
  const domain = siteDomainOf(address);
  const submit = () =>
    add.run(async () => {
      const site = await call('POST /manage/orgs/:orgId/sites', { params: { orgId }, body: { domain, name: name || domain, timezone, rawDays } });
      window.location.assign(`/sites/${encodeURIComponent(site.id)}`);
    });
  return (
    <section class="card" id="sites" aria-labelledby="sites-title">
      <h2 id="sites-title">{orgSettingsText.sitesTitle}</h2>
      <LoadState state={sites}>
        {({ sites: rows }) => (
          <WideTable
            class="stack"
            columns={[frameText.siteTabs, orgSettingsText.domainWord, orgSettingsText.timeZoneColumn, frameText.settingsTab]}
            rows={rows}
            empty={<p class="muted">{orgSettingsText.addFirstSite}</p>}
            row={(site) => (
              <tr key={site.id}>
                <td>
                  {site.status === 'active' ? <a href={`/sites/${encodeURIComponent(site.id)}`}>{site.name}</a> : site.name}{' '}
                  {site.status === 'archived' && <span class="badge">{orgSettingsText.archivedBadge}</span>}
                </td>
                <td class="muted">{site.domain}</td>
                <td class="muted">{site.timezone}</td>
                <td>
                  <a href={`/sites/${encodeURIComponent(site.id)}/settings`} aria-label={fill(orgSettingsText.settingsOf, { name: site.name })}>
                    {frameText.settingsTab}
                  </a>
                </td>
              </tr>
            )}
          />
        )}
      </LoadState>
      <FormSection title={orgSettingsText.addSite} action={add} onSubmit={submit} submitLabel={orgSettingsText.addSiteButton} busyLabel={orgSettingsText.addingNote}>
        <TextField
          label={orgSettingsText.domainWord}
          required
          placeholder={orgSettingsText.domainExample}
          spellcheck={false}
          value={address}
          onValue={setAddress}
          hint={domain !== '' && domain !== address.trim() ? fill(orgSettingsText.addsSiteAs, { domain }) : orgSettingsText.domainHint}
        />
        <TextField label={orgSettingsText.nameWord} placeholder={orgSettingsText.sameAsDomain} value={name} onValue={setName} />
        <TimezoneField value={timezone} onValue={setTimezone} />
        <RawDaysField days={rawDays} onDays={setRawDays} />
      </FormSection>
    </section>
  );
}

function Keys({ orgId }: { orgId: number }) {
  const keys = useRead(() => call('GET /manage/orgs/:orgId/keys', { params: { orgId } }), [orgId]);
  const [name, setName] = useState('');
  const [scope, setScope] = useState<KeyScope>('read');
  const [created, setCreated] = useState<{ name: string; key: string } | undefined>(undefined);
  const create = useAction();
  const revoke = useAction();
  const submit = () =>
    create.run(async () => {
      const key = await call('POST /manage/orgs/:orgId/keys', { params: { orgId }, body: name ? { name, scope } : { scope } });
      setCreated(key);
      setName('');
      setScope('read');
      keys.reload();
    });
  return (
    <section class="card" id="keys" aria-labelledby="keys-title">
      <h2 id="keys-title">{orgSettingsText.keysTitle}</h2>
      <p class="muted">{orgSettingsText.keysIntro}</p>
      {created && (
        <ShownOnce region={orgSettingsText.newKeyRegion} text={created.key} label={orgSettingsText.newKeyLabel} onDone={() => setCreated(undefined)}>
          <strong>{fill(orgSettingsText.copyKeyNow, { name: created.name ? quoted(created.name) : '' })}</strong> {orgSettingsText.keyShownOnce}
        </ShownOnce>
      )}
      <LoadState state={keys}>
        {({ keys: rows }) => (
          <WideTable
            columns={[orgSettingsText.nameWord, orgSettingsText.scopeWord, orgSettingsText.createdColumn, orgSettingsText.stateColumn]}
            rows={rows}
            empty={<p class="muted">{orgSettingsText.noKeys}</p>}
            row={(key) => (
              <tr key={key.id}>
                <td>{key.name || <span class="muted">{orgSettingsText.unnamedKey}</span>}</td>
                <td>{orgSettingsText.scopeNames[key.scope]}</td>
                <td class="muted">{formatInstant(key.createdAt)}</td>
                <td>
                  {key.revokedAt ? (
                    <span class="badge">{fill(orgSettingsText.revokedOn, { time: formatInstant(key.revokedAt) })}</span>
                  ) : (
                    <ConfirmButton
                      label={fill(orgSettingsText.revokeKey, { name: key.name || key.id })}
                      question={fill(orgSettingsText.revokeKeyQuestion, { name: key.name ? quoted(key.name) : key.id })}
                      confirmLabel={orgSettingsText.revokeButton}
                      disabled={revoke.busy}
                      onConfirm={() => revoke.run(() => call('POST /manage/keys/:keyId/revoke', { params: { keyId: key.id } })).then(keys.reload)}
                    >
                      {orgSettingsText.revokeButton}
                    </ConfirmButton>
                  )}
                </td>
              </tr>
            )}
          />
        )}
      </LoadState>
      <ErrorText message={revoke.error} />
      <FormSection title={orgSettingsText.createKeyTitle} label={orgSettingsText.createKeyForm} action={create} onSubmit={submit} submitLabel={orgSettingsText.createKeyButton} busyLabel={orgSettingsText.creatingNote}>
        <TextField label={orgSettingsText.keyNameField} placeholder={orgSettingsText.keyNameExample} value={name} onValue={setName} />
        <SelectField<KeyScope> label={orgSettingsText.scopeWord} value={scope} onValue={setScope} options={scopeOptions()} />
      </FormSection>
    </section>
  );
}

/** The owner's switch: every member must sign in with two factors (the owner's own enabled first). */
function RequireTwoFactor({ orgId }: { orgId: number }) {
  const policy = useRead(() => call('GET /manage/orgs/:orgId/two-factor', { params: { orgId } }), [orgId]);
  const change = useAction();
  return (
    <LoadState state={policy}>
      {({ required }) => (
        <>
          <CheckboxField
            label={orgSettingsText.requireTwoFactor}
            hint={orgSettingsText.requireTwoFactorHint}
            checked={required}
            onChecked={(next) => change.run(() => call('PUT /manage/orgs/:orgId/two-factor', { params: { orgId }, body: { required: next } })).then(policy.reload)}
          />
          <ErrorText message={change.error} />
        </>
      )}
    </LoadState>
  );
}

function Members({ orgId, session }: { orgId: number; session: SessionView }) {
  const members = useRead(() => call('GET /manage/orgs/:orgId/members', { params: { orgId } }), [orgId]);
  const change = useAction();
  const setMemberRole = (member: Member, next: Role) => change.run(() => call('PUT /manage/orgs/:orgId/members/:userId', { params: { orgId, userId: member.userId }, body: { role: next } })).then(members.reload);
  return (
    <section class="card" id="members" aria-labelledby="members-title">
      <h2 id="members-title">{orgSettingsText.membersTitle}</h2>
      <LoadState state={members}>
        {({ members: rows }) => (
          <WideTable
            class="stack"
            columns={[orgSettingsText.memberColumn, orgSettingsText.roleWord, orgSettingsText.removeButton]}
            rows={rows}
            row={(member) => (
              <tr key={member.userId}>
                <td>
                  {member.name || member.email}
                  {member.name && <div class="muted">{member.email}</div>}
                </td>
                <td>
                  <select aria-label={fill(orgSettingsText.roleOf, { email: member.email })} value={member.role} disabled={change.busy} onChange={(event) => setMemberRole(member, event.currentTarget.value as Role)}>
                    {ROLES.map((value) => (
                      <option key={value} value={value}>
                        {orgSettingsText.roleNames[value]}
                      </option>
                    ))}
                  </select>
                </td>
                <td>
                  {member.userId === session.user.id ? (
                    <span class="muted">{orgSettingsText.youNote}</span>
                  ) : (
                    <ConfirmButton
                      label={fill(orgSettingsText.removeMember, { email: member.email })}
                      question={fill(orgSettingsText.removeMemberQuestion, { email: member.email })}
                      confirmLabel={orgSettingsText.removeButton}
                      disabled={change.busy}
                      onConfirm={() => change.run(() => call('DELETE /manage/orgs/:orgId/members/:userId', { params: { orgId, userId: member.userId } })).then(members.reload)}
                    >
                      {orgSettingsText.removeButton}
                    </ConfirmButton>
                  )}
                </td>
              </tr>
            )}
          />
        )}
      </LoadState>
      <ErrorText message={change.error} />
      <RequireTwoFactor orgId={orgId} />
      <SignInSettings orgId={orgId} />
      <Invitations orgId={orgId} />
    </section>
  );
}

function PendingInvitation({ invitation, revoke, onRevoke }: { invitation: ManagedInvitation; revoke: Action; onRevoke(): Promise<void> }) {
  return (
    <tr>
      <td>{invitation.email}</td>
      <td>{orgSettingsText.roleNames[invitation.role]}</td>
      <td class="muted">{formatInstant(invitation.expiresAt)}</td>
      <td>
        <ConfirmButton
          label={fill(orgSettingsText.revokeInvitation, { email: invitation.email })}
          question={fill(orgSettingsText.revokeInvitationQuestion, { email: invitation.email })}
          confirmLabel={orgSettingsText.revokeButton}
          disabled={revoke.busy}
          onConfirm={() => revoke.run(onRevoke)}
        >
          {orgSettingsText.revokeButton}
        </ConfirmButton>
      </td>
    </tr>
  );
}

/** Invite member: the link is shown once (and mailed when the service sends mail); pending ones are revoked here. */
function Invitations({ orgId }: { orgId: number }) {
  const pending = useRead(() => call('GET /manage/orgs/:orgId/invitations', { params: { orgId } }), [orgId]);
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('viewer');
  const [sent, setSent] = useState<CreatedInvitation | undefined>(undefined);
  const send = useAction();
  const revoke = useAction();
  const submit = () =>
    send.run(async () => {
      setSent(await call('POST /manage/orgs/:orgId/invitations', { params: { orgId }, body: { email, role } }));
      setEmail('');
      pending.reload();
    });
  return (
    <>
      <FormSection title={orgSettingsText.inviteMember} action={send} onSubmit={submit} submitLabel={orgSettingsText.sendInvitation} busyLabel={orgSettingsText.sendingNote}>
        <TextField label={orgSettingsText.emailField} type="email" required value={email} onValue={setEmail} />
        <SelectField<Role> label={orgSettingsText.roleWord} value={role} onValue={setRole} options={roleOptions()} />
      </FormSection>
      {sent && (
        <ShownOnce region={orgSettingsText.invitationRegion} text={sent.url} label={fill(orgSettingsText.invitationLinkFor, { email: sent.email })} onDone={() => setSent(undefined)}>
          <strong>{fill(orgSettingsText.copyLinkNow, { email: sent.email })}</strong> {fill(orgSettingsText.linkShownOnce, { time: formatInstant(sent.expiresAt) })}
          {sent.emailed ? orgSettingsText.alsoEmailed : ''}
        </ShownOnce>
      )}
      <h3>{orgSettingsText.pendingTitle}</h3>
      <LoadState state={pending}>
        {({ invitations: rows }) => (
          <WideTable
            columns={[orgSettingsText.emailField, orgSettingsText.roleWord, orgSettingsText.expiresColumn, orgSettingsText.revokeButton]}
            rows={rows}
            empty={<p class="muted">{orgSettingsText.noPending}</p>}
            row={(invitation) => <PendingInvitation key={invitation.invitationId} invitation={invitation} revoke={revoke} onRevoke={() => call('DELETE /manage/orgs/:orgId/invitations/:invitationId', { params: { orgId, invitationId: invitation.invitationId } }).then(pending.reload)} />}
          />
        )}
      </LoadState>
      <ErrorText message={revoke.error} />
    </>
  );
}

function OrgSettings({ session }: { session: SessionView }) {
  const orgId = Number(pathSegment(1));
  const membership = membershipOf(session, orgId);
  const title = membership ? fill(orgSettingsText.orgSettingsOf, { org: membership.orgName }) : orgSettingsText.orgSettingsLink;
  return (
    <Layout session={session} title={title}>
      {!membership ? (
        <ErrorText message={orgSettingsText.noSuchOrg} />
      ) : !roleAtLeast(membership.role, 'admin') ? (
        <p class="error" role="alert">
          {fill(orgSettingsText.settingsForAdmins, { org: membership.orgName, role: orgSettingsText.roleNames[membership.role] })} <a href="/">{orgSettingsText.backToSites}</a>.
        </p>
      ) : (
        <>
          <Sites orgId={orgId} />
          <Keys orgId={orgId} />
          {membership.role === 'owner' && <Members orgId={orgId} session={session} />}
        </>
      )}
    </Layout>
  );
}

mountPage(<SignedIn>{(session) => <OrgSettings session={session} />}</SignedIn>);
