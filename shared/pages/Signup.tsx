import { AuthPage } from '../auth/AuthPage.js'

export default function Signup() {
  return <AuthPage kind="signup" />
}
