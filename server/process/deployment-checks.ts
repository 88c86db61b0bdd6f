/**
 * The whole configuration checked together, once at start. Each variable is validated alone by
 * its schema; these rules are about what they mean together once the site is public. They apply
 * only when PUBLIC_URL is not a local address, so `npm start` with nothing set stays as it is.
 * A refusal is what would break things for visitors (links to this machine in emails, mail that
 * cannot arrive): the process does not start, naming every one. A warning is a risk an operator
 * may take on purpose: logged in one line at start.
 */
import { isLocalUrl } from './env.js'
import { requireLastingSecret } from '../giffer/config.js'

export interface DeploymentReport {
  refusals: string[]
  warnings: string[]
}

/** What the checks read: the site's variables, PUBLIC_URL resolved. */
export interface DeploymentSettings {
  PUBLIC_URL: string
  NODE_ENV: string
  GIFFER_URL?: string
  GIFFER_SECRET?: string
  GIFFER_PUBLIC_URL?: string
  DASHBOARD_URL?: string
  APP_URL?: string
  S3_BUCKET?: string
  S3_ENDPOINT?: string
  S3_PUBLIC_ENDPOINT?: string
  SMTP_URL?: string
  MAIL_FROM: string
  DASHBOARD_OUTBOX: boolean
  METRICS_TOKEN?: string
}

const LOCAL_MAIL_DOMAIN = /@[^@>]*\.?localhost>?$/i

export function checkDeployment(settings: DeploymentSettings): DeploymentReport {
  const report: DeploymentReport = { refusals: [], warnings: [] }
  const { PUBLIC_URL: publicUrl } = settings
  if (isLocalUrl(publicUrl)) return report
  const refuse = (message: string) => report.refusals.push(message)
  const warn = (message: string) => report.warnings.push(message)
  const localDashboard = !settings.DASHBOARD_URL

  if (!settings.GIFFER_URL) {
    try {
      requireLastingSecret(settings.GIFFER_SECRET, settings.GIFFER_PUBLIC_URL ?? publicUrl)
    } catch (error) {
      refuse((error as Error).message)
    }
  }
  if (settings.GIFFER_PUBLIC_URL && isLocalUrl(settings.GIFFER_PUBLIC_URL)) {
    refuse(`GIFFER_PUBLIC_URL: ${settings.GIFFER_PUBLIC_URL} is this machine, while PUBLIC_URL is public: live timers in emails and uploaded images would point there.`)
  }
  if (settings.APP_URL && isLocalUrl(settings.APP_URL)) {
    refuse(`APP_URL: ${settings.APP_URL} is this machine, while PUBLIC_URL is public: visitors would be sent there after log-in and sign-up.`)
  }
  const uploadEndpoint = settings.S3_PUBLIC_ENDPOINT ?? settings.S3_ENDPOINT
  if (settings.S3_BUCKET && uploadEndpoint && isLocalUrl(uploadEndpoint)) {
    refuse(`S3_PUBLIC_ENDPOINT: browsers would post uploads to ${uploadEndpoint}, this machine. Set it to the address browsers reach the store at.`)
  }
  if (localDashboard && settings.SMTP_URL && LOCAL_MAIL_DOMAIN.test(settings.MAIL_FROM)) {
    refuse(`MAIL_FROM: "${settings.MAIL_FROM}" is not a sender any mail server accepts; reset links would not arrive. Set an address of your own domain.`)
  }

  if (!settings.METRICS_TOKEN) warn('METRICS_TOKEN is not set: /metrics is open to anyone who finds it.')
  if (publicUrl.startsWith('http:')) warn('PUBLIC_URL is plain http: cookies are not Secure and there is no HSTS.')
  if (localDashboard && !settings.SMTP_URL) warn('SMTP_URL is not set: account mail (reset links) stays in the local outbox and reaches nobody.')
  if (localDashboard && settings.DASHBOARD_OUTBOX) warn('DASHBOARD_OUTBOX is on: /app/outbox/ shows every reset link to whoever opens it.')
  if (settings.NODE_ENV !== 'production') warn(`NODE_ENV is ${settings.NODE_ENV}: development pages (the outbox) are on and errors say more.`)
  return report
}
