// Tells the page that opened this window who signed in, addressed to the site's origin only,
// then closes. The data comes from an inert JSON block written by the server. Opened in the
// same tab instead (popups blocked), it goes on to the app, as the opener would have.
;(function () {
  var block = document.getElementById('social-result')
  if (!block) return
  var result = JSON.parse(block.textContent)
  if (!window.opener) {
    window.location.replace(result.message.login_url)
    return
  }
  window.opener.postMessage(result.message, result.targetOrigin)
  window.close()
})()
