// An organisation's sign-in settings, for its owners: `Require single sign-on`, and `Sign-in domains`
// (unknown users of these email domains join as viewers through single sign-on), shown only: the
// operator grants them.
import { useEffect, useState } from 'preact/hooks';
import { call } from '../lib/client.js';
import { useAction, useRead } from '../lib/hooks.js';
import { orgSettingsText } from '../lib/text/org-settings.js';
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
    <FormSection title={orgSettingsText.signInTitle} label={orgSettingsText.signInForm} action={save} onSubmit={submit} submitLabel={orgSettingsText.saveSignIn} busyLabel={orgSettingsText.savingNote}>
      <div class="field">
        <p>
          <strong>{orgSettingsText.signInDomains}</strong> {saved.domains.length > 0 ? saved.domains.join(', ') : orgSettingsText.noDomains}
        </p>
        <p class="hint">{orgSettingsText.signInDomainsHint}</p>
      </div>
      <CheckboxField
        label={orgSettingsText.requireSingleSignOn}
        hint={saved.singleSignOnConfigured ? orgSettingsText.singleSignOnOnly : orgSettingsText.singleSignOnMissing}
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
