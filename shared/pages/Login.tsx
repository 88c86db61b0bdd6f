import { AuthPage } from '../auth/AuthPage.js'

export default function Login() {
  return <AuthPage kind="login" />
}
