// An organisation's sign-in settings, for its owners: `Sign-in domains` (unknown users of these
// email domains join as viewers through single sign-on) and `Require single sign-on`.
import { useEffect, useState } from 'preact/hooks';
import { api } from '../lib/api.js';
import { useAction, useLoad } from '../lib/hooks.js';
import type { OrgSignInView } from '../../src/core/management.js';
import { LoadState } from './feedback.js';
import { CheckboxField, TextAreaField } from './fields.js';
import { FormSection } from './form-section.js';

function SignInForm({ orgId, saved, onSaved }: { orgId: number; saved: OrgSignInView; onSaved(): void }) {
  const [domains, setDomains] = useState(saved.domains.join('\n'));
  const [required, setRequired] = useState(saved.requireSingleSignOn);
  useEffect(() => {
    setDomains(saved.domains.join('\n'));
    setRequired(saved.requireSingleSignOn);
  }, [saved]);
  const save = useAction();
  const submit = () =>
    save.run(async () => {
      const list = domains.split(/[\s,]+/).filter((domain) => domain !== '');
      await api('PUT', `/manage/orgs/${orgId}/sign-in`, { domains: list, requireSingleSignOn: required });
      onSaved();
    });
  return (
    <FormSection title="Sign-in" label="Sign-in settings" action={save} onSubmit={submit} submitLabel="Save sign-in" busyLabel="Saving…">
      <TextAreaField
        label="Sign-in domains"
        hint="One email domain a line. Through single sign-on, people of these domains without an account here get one, as viewers."
        placeholder="example.com"
        spellcheck={false}
        value={domains}
        onValue={setDomains}
      />
      <CheckboxField
        label="Require single sign-on"
        hint={saved.singleSignOnConfigured ? 'Members then sign in with single sign-on only, never with a password.' : 'Single sign-on is not configured on this service.'}
        checked={required}
        onChecked={setRequired}
      />
    </FormSection>
  );
}

export function SignInSettings({ orgId }: { orgId: number }) {
  const settings = useLoad(() => api<OrgSignInView>('GET', `/manage/orgs/${orgId}/sign-in`), [orgId]);
  return <LoadState state={settings}>{(saved) => <SignInForm orgId={orgId} saved={saved} onSaved={settings.reload} />}</LoadState>;
}
