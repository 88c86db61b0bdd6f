import { AuthPage } from '../auth/AuthPage.js'

export default function Reset() {
  return <AuthPage kind="reset" />
}
