import { AuthPage } from './AuthPage.js'
import { usePageData } from '../page-data.js'

export default function NewPassword() {
  const { token, usable } = usePageData('reset-new')
  if (!token || !usable) {
    return (
      <AuthPage kind="reset" noindex>
        <p className="form-error" role="alert">
          This reset link has expired or was already used. Ask for a new one below.
        </p>
      </AuthPage>
    )
  }
  return <AuthPage kind="new-password" token={token} />
}
