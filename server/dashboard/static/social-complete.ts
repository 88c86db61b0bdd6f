/**
 * The end of the social sign-in popup: tells the page that opened this window who signed in,
 * addressed to the site's origin only, then closes. The data comes from an inert JSON block
 * written by the server. Opened in the same tab instead (popups blocked), it goes on to the app,
 * as the opener would have.
 */

interface SocialResult {
  message: { type: 'signupComplete'; login_url: string }
  targetOrigin: string
}

const block = document.getElementById('social-result')
if (block?.textContent) {
  const result = JSON.parse(block.textContent) as SocialResult
  if (window.opener) {
    ;(window.opener as Window).postMessage(result.message, result.targetOrigin)
    window.close()
  } else {
    window.location.replace(result.message.login_url)
  }
}

// A module, so its names stay its own.
export {}
