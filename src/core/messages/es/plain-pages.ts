// The pages the server writes itself in Spanish (usted): see ../en/plain-pages.ts.
import type { PlainPagesCatalogue } from '../catalogue.js';

const es: PlainPagesCatalogue = {
  confirmEmail: {
    title: 'Confirme su correo electrónico',
    invalid: 'Este enlace de confirmación no es válido.',
    question: '¿Confirmar este correo como el correo de su cuenta de svc?',
    confirm: 'Confirmar',
    changed: 'El correo de su cuenta es ahora {email}. Vuelva a iniciar sesión con él.',
    confirmed: 'Su correo {email} está confirmado.',
    signIn: 'Iniciar sesión',
  },
  unsubscribe: {
    title: 'Informes por correo',
    invalid: 'Este enlace para darse de baja no es válido.',
    question: '¿Dejar de recibir este informe de este sitio?',
    unsubscribe: 'Darse de baja',
    done: {
      weekly: 'Hecho: ya no recibirá el informe semanal de este sitio. Puede volver a elegir informes en la página de su cuenta.',
      monthly: 'Hecho: ya no recibirá el informe mensual de este sitio. Puede volver a elegir informes en la página de su cuenta.',
    },
  },
  setupDone: {
    title: 'Configuración completada',
    body: 'svc ya está configurado: su primera cuenta existe. {signIn} en su lugar.',
    signIn: 'Inicie sesión',
  },
};

export default es;
