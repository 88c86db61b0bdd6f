import { AuthPage } from './AuthPage.js'

export default function Reset() {
  return <AuthPage kind="reset" />
}
