// The pages the server writes itself in French (vouvoiement): see ../en/plain-pages.ts.
import type { PlainPagesCatalogue } from '../catalogue.js';

const fr: PlainPagesCatalogue = {
  confirmEmail: {
    title: 'Confirmer votre adresse e-mail',
    invalid: 'Ce lien de confirmation n’est pas valide.',
    question: 'Confirmer cette adresse comme adresse e-mail de votre compte svc ?',
    confirm: 'Confirmer',
    changed: 'L’adresse e-mail de votre compte est désormais {email}. Reconnectez-vous avec celle-ci.',
    confirmed: 'Votre adresse e-mail {email} est confirmée.',
    signIn: 'Se connecter',
  },
  unsubscribe: {
    title: 'Rapports par e-mail',
    invalid: 'Ce lien de désabonnement n’est pas valide.',
    question: 'Ne plus recevoir ce rapport pour ce site ?',
    unsubscribe: 'Se désabonner',
    done: {
      weekly: 'C’est fait : vous ne recevrez plus le rapport hebdomadaire de ce site. Vous pouvez de nouveau choisir des rapports sur la page de votre compte.',
      monthly: 'C’est fait : vous ne recevrez plus le rapport mensuel de ce site. Vous pouvez de nouveau choisir des rapports sur la page de votre compte.',
    },
  },
  setupDone: {
    title: 'Configuration terminée',
    body: 'svc est configuré : son premier compte existe déjà. {signIn} plutôt.',
    signIn: 'Connectez-vous',
  },
};

export default fr;
