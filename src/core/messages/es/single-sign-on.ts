// The catalogue's `singleSignOn` section in Spanish: see ./web.ts.
import type { WebCatalogue } from '../catalogue.js';

export const singleSignOn: WebCatalogue['singleSignOn'] = {
  failures: {
    denied: 'El inicio de sesión se canceló en el proveedor de identidad. Vuelva a empezar para iniciar sesión.',
    state: 'Este inicio de sesión caducó o ya se usó. Vuelva a empezar.',
    browser: 'Este inicio de sesión se empezó en otro navegador, así que no ha iniciado su sesión aquí. Vuelva a empezar desde esta página.',
    check: 'La respuesta del proveedor de identidad no superó una comprobación, así que no se usó. Vuelva a empezar; si ocurre de nuevo, avise a su operador.',
    provider: 'Ahora no se puede contactar con el proveedor de identidad. Inténtelo de nuevo en unos minutos o inicie sesión con su contraseña.',
    noEmail: 'El proveedor de identidad no compartió su dirección de correo, así que no puede iniciar su sesión aquí. Pida a su operador que permita a svc leer el atributo de correo y vuelva a empezar.',
    unverified: 'Según el proveedor de identidad, su correo no está verificado, así que no puede iniciar su sesión aquí. Verifíquelo en el proveedor y vuelva a empezar.',
    unconfirmed: 'Aquí existe una cuenta con su correo, pero ese correo no está confirmado, así que el inicio de sesión único no puede usarla. Inicie sesión con su contraseña y confirme antes su correo en la página de su cuenta.',
    noAccount: 'Su cuenta no existe aquí. Pida una invitación a un propietario de su organización.',
    busy: 'Hay demasiados inicios de sesión en curso. Espere unos minutos y vuelva a empezar.',
    unconfigured: 'El inicio de sesión único no está configurado en este servicio. Inicie sesión con su contraseña.',
    internal: 'El inicio de sesión ha fallado por parte de este servicio. Inténtelo de nuevo en un momento.',
  },
};
