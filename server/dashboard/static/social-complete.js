// Tells the page that opened this window who signed in, addressed to the site's origin only,
// then closes. The data comes from an inert JSON block written by the server.
;(function () {
  var block = document.getElementById('social-result')
  if (!block || !window.opener) return
  var result = JSON.parse(block.textContent)
  window.opener.postMessage(result.message, result.targetOrigin)
  window.close()
})()
