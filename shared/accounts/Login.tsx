import { AuthPage } from './AuthPage.js'

export default function Login() {
  return <AuthPage kind="login" />
}
