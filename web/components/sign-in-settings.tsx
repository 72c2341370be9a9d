// An organisation's sign-in settings, for its owners: `Require single sign-on`, and `Sign-in domains`
// (unknown users of these email domains join as viewers through single sign-on), shown only: the
// operator grants them.
import { useEffect, useState } from 'preact/hooks';
import { call } from '../lib/client.js';
import { useAction, useRead } from '../lib/hooks.js';
import type { OrgSignInView } from '../../src/core/management.js';
import { LoadState } from './feedback.js';
import { CheckboxField } from './fields.js';
import { FormSection } from './form-section.js';

function SignInForm({ orgId, saved, onSaved }: { orgId: number; saved: OrgSignInView; onSaved(): void }) {
  const [required, setRequired] = useState(saved.requireSingleSignOn);
  useEffect(() => {
    setRequired(saved.requireSingleSignOn);
  }, [saved]);
  const save = useAction();
  const submit = () =>
    save.run(async () => {
      await call('PUT /manage/orgs/:orgId/sign-in', { params: { orgId }, body: { requireSingleSignOn: required } });
      onSaved();
    });
  return (
    <FormSection title="Sign-in" label="Sign-in settings" action={save} onSubmit={submit} submitLabel="Save sign-in" busyLabel="Saving…">
      <div class="field">
        <p>
          <strong>Sign-in domains:</strong> {saved.domains.length > 0 ? saved.domains.join(', ') : 'none'}
        </p>
        <p class="hint">
          Through single sign-on, people of these email domains without an account here get one, as viewers. The operator grants a domain (svc org sign-in-domains): ask them for one.
        </p>
      </div>
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
  const settings = useRead(() => call('GET /manage/orgs/:orgId/sign-in', { params: { orgId } }), [orgId]);
  return <LoadState state={settings}>{(saved) => <SignInForm orgId={orgId} saved={saved} onSaved={settings.reload} />}</LoadState>;
}
