/**
 * The app home's script: logging out also forgets what the site's pages remember of the session
 * in this tab (the session check's answer and the signed-in user), so the site's header stops
 * offering the dashboard at once rather than when its one-minute memory runs out.
 */
import { forgetUser } from '../../../shared/accounts/client.js'

document.querySelector('form[action="/app/logout"]')?.addEventListener('submit', forgetUser)
