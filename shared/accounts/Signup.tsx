import { AuthPage } from './AuthPage.js'

export default function Signup() {
  return <AuthPage kind="signup" />
}
