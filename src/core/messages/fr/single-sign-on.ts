// The catalogue's `singleSignOn` section in French: see ./web.ts.
import type { WebCatalogue } from '../catalogue.js';

export const singleSignOn: WebCatalogue['singleSignOn'] = {
  failures: {
    denied: 'La connexion a été annulée auprès du fournisseur d’identité. Recommencez pour vous connecter.',
    state: 'Cette connexion a expiré ou a déjà été utilisée. Recommencez.',
    browser: 'Cette connexion a été lancée dans un autre navigateur : elle ne vous a donc pas connecté ici. Recommencez depuis cette page.',
    check: 'La réponse du fournisseur d’identité n’a pas passé une vérification : elle n’a donc pas été utilisée. Recommencez ; si cela se reproduit, prévenez votre opérateur.',
    provider: 'Le fournisseur d’identité est injoignable pour le moment. Réessayez dans quelques minutes, ou connectez-vous avec votre mot de passe.',
    noEmail: 'Le fournisseur d’identité n’a pas transmis votre adresse e-mail : il ne peut donc pas vous connecter ici. Demandez à votre opérateur de laisser svc lire l’attribut e-mail, puis recommencez.',
    unverified: 'Selon le fournisseur d’identité, votre adresse e-mail n’est pas vérifiée : il ne peut donc pas vous connecter ici. Vérifiez-la auprès du fournisseur, puis recommencez.',
    unconfirmed: 'Un compte existe ici avec votre adresse e-mail, mais celle-ci n’est pas confirmée : l’authentification unique ne peut donc pas l’utiliser. Connectez-vous d’abord avec votre mot de passe et confirmez votre adresse sur la page de votre compte.',
    noAccount: 'Votre compte n’existe pas ici. Demandez une invitation à un propriétaire de votre organisation.',
    busy: 'Trop de connexions sont en cours. Attendez quelques minutes, puis recommencez.',
    unconfigured: 'L’authentification unique n’est pas configurée sur ce service. Connectez-vous avec votre mot de passe.',
    internal: 'La connexion a échoué du côté de ce service. Réessayez dans un instant.',
  },
};
