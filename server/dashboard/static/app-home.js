// Logging out also forgets what the site's pages remember of the session in this tab (the
// session check's answer and the signed-in user), so the site's header stops offering the
// dashboard at once rather than when its one-minute memory runs out.
;(function () {
  var form = document.querySelector('form[action="/app/logout"]')
  if (!form) return
  form.addEventListener('submit', function () {
    try {
      window.sessionStorage.removeItem('pl_login_check')
      window.sessionStorage.removeItem('pl_user')
    } catch (error) {
      // Storage turned off: there is nothing remembered either.
    }
  })
})()
