import { redirect } from 'react-router';
import { paths } from '../../lib/paths';
import { findSessionHome } from './find-session-home';

/** `/`: the user's area with a valid session, else /login. */
export async function rootLoader() {
  return redirect((await findSessionHome()) ?? paths.login);
}

/** `/login`: a valid session skips the login screen. */
export async function loginLoader() {
  const home = await findSessionHome();
  return home ? redirect(home) : null;
}
