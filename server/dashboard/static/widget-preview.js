/*
 * Live widget preview (/app/preview/{hid}): makes the widget drawn by server/gallery/widget-render.ts
 * work as it would on a shop: fields checked, success state, code copy, countdown, close, launcher.
 *
 * Messages (only with the embedding page of this origin, docs/galleries.md):
 *   in:  {type: 'navigate', url}  — show another preview (or the same one in another theme)
 *   out: {type: 'preview:ready', hid, theme}, {type: 'preview:submitted', hid}, {type: 'preview:closed', hid}
 */
;(function () {
  'use strict'
  var root = document.querySelector('[data-plw]')
  if (!root) return
  var hid = root.getAttribute('data-hid')
  var layout = root.getAttribute('data-layout')
  var box = root.querySelector('[data-plw-box]')
  var overlay = root.querySelector('[data-plw-overlay]')
  var launcher = root.querySelector('[data-plw-launcher]')
  var main = root.querySelector('[data-plw-main]')
  var success = root.querySelector('[data-plw-success]')
  var refusal = root.querySelector('[data-plw-refusal]')
  var replay = document.querySelector('[data-preview-replay]')
  var framed = window.parent !== window
  var reducedMotion = window.matchMedia && window.matchMedia('(prefers-reduced-motion: reduce)').matches
  var isOpen = true
  var returnFocus = null

  var EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/
  var PREVIEW_PATH = /^\/app\/preview\/[a-z0-9]{8}$/

  function tell(type, extra) {
    if (!framed) return
    var message = { type: type, hid: hid }
    if (extra) for (var key in extra) message[key] = extra[key]
    window.parent.postMessage(message, location.origin)
  }

  function focusables() {
    return Array.prototype.filter.call(
      box.querySelectorAll('button, input, select, textarea, a[href], [tabindex]:not([tabindex="-1"])'),
      function (node) {
        return !node.disabled && node.offsetParent !== null
      },
    )
  }

  var modal = box.getAttribute('aria-modal') === 'true'

  // A modal takes the keyboard when it shows: its first field, or the dialog itself when it has
  // none (so its name is read before a choice is offered). Where the focus was comes back on close.
  // Inside a frame the page never takes the focus by itself: the embedding page keeps it.
  function takeFocus() {
    if (framed || !modal) return
    returnFocus = document.activeElement
    var field = box.querySelector('input:not([type=hidden]), select, textarea')
    if (field && field.offsetParent !== null) {
      field.focus({ preventScroll: true })
      return
    }
    box.setAttribute('tabindex', '-1')
    box.focus({ preventScroll: true })
  }

  function open() {
    root.classList.remove('plw--closing')
    box.hidden = false
    if (overlay) overlay.hidden = false
    isOpen = true
    if (launcher) launcher.setAttribute('aria-expanded', 'true')
    if (replay) replay.hidden = true
    takeFocus()
  }

  function close() {
    if (!isOpen || layout === 'inline') return
    isOpen = false
    root.classList.add('plw--closing')
    if (launcher) launcher.setAttribute('aria-expanded', 'false')
    setTimeout(
      function () {
        if (isOpen) return
        box.hidden = true
        if (overlay) overlay.hidden = true
        root.classList.remove('plw--closing')
        if (replay && !launcher) replay.hidden = false
        var target = launcher || replay || returnFocus
        if (target && target.focus && !framed) target.focus()
      },
      reducedMotion ? 0 : 280,
    )
    tell('preview:closed')
  }

  function showState(state) {
    main.hidden = true
    success.hidden = state !== success
    if (refusal) refusal.hidden = state !== refusal
    state.hidden = false
    state.setAttribute('tabindex', '-1')
    if (!framed) state.focus()
  }

  // ---- fields

  function labelOf(field) {
    var label = field.querySelector('.plw-label')
    return label ? label.textContent.replace(/\s*\(optional\)$/, '') : 'This field'
  }

  function ageOn(date, today) {
    var age = today.getFullYear() - date.getFullYear()
    var beforeBirthday = today.getMonth() < date.getMonth() || (today.getMonth() === date.getMonth() && today.getDate() < date.getDate())
    return beforeBirthday ? age - 1 : age
  }

  function problemOf(field) {
    var radios = field.querySelectorAll('input[type=radio]')
    if (radios.length) {
      var required = Array.prototype.some.call(radios, function (radio) { return radio.required })
      var chosen = Array.prototype.some.call(radios, function (radio) { return radio.checked })
      if (required && !chosen) return field.querySelector('.plw-stars') ? 'Choose a rating' : 'Choose one of the options'
      return null
    }
    var control = field.querySelector('input, select, textarea')
    if (!control) return null
    if (control.type === 'checkbox') return control.required && !control.checked ? 'Please tick this box to continue' : null
    var value = control.value.trim()
    if (!value) return control.required ? (control.tagName === 'SELECT' ? 'Choose an option' : labelOf(field) + ' is required') : null
    if (control.type === 'email' && !EMAIL.test(value)) return 'Enter a valid email address'
    if (control.type === 'tel') {
      var digits = value.replace(/\D/g, '').length
      if (!/^\+?[\d\s().-]+$/.test(value) || digits < 7 || digits > 15) return 'Enter a valid phone number'
    }
    if (control.type === 'date') {
      var date = new Date(value + 'T00:00:00')
      if (isNaN(date.getTime())) return 'Enter a real date'
      var minAge = Number(control.getAttribute('data-min-age'))
      if (minAge) {
        if (date > new Date()) return 'Enter a date in the past'
        if (ageOn(date, new Date()) < minAge) return 'You must be ' + minAge + ' or older'
      }
    }
    return null
  }

  function setProblem(field, message) {
    var error = field.querySelector('[data-plw-error]')
    var controls = field.querySelectorAll('input, select, textarea')
    for (var i = 0; i < controls.length; i++) {
      if (message) controls[i].setAttribute('aria-invalid', 'true')
      else controls[i].removeAttribute('aria-invalid')
    }
    if (!error) return
    error.textContent = message || ''
    error.hidden = !message
  }

  var form = root.querySelector('[data-plw-form]')
  if (form) {
    form.addEventListener('submit', function (event) {
      event.preventDefault()
      var first = null
      var fields = form.querySelectorAll('[data-plw-field]')
      for (var i = 0; i < fields.length; i++) {
        var message = problemOf(fields[i])
        setProblem(fields[i], message)
        if (message && !first) first = fields[i].querySelector('input, select, textarea')
      }
      if (first) {
        first.focus()
        return
      }
      showState(success)
      tell('preview:submitted')
    })
    // Editing a field clears its error.
    var clear = function (event) {
      var field = event.target.closest && event.target.closest('[data-plw-field]')
      if (field) setProblem(field, null)
    }
    form.addEventListener('input', clear)
    form.addEventListener('change', clear)
  }

  // ---- buttons

  root.addEventListener('click', function (event) {
    var target = event.target.closest ? event.target.closest('button, [data-plw-overlay]') : null
    if (!target) return
    if (target.hasAttribute('data-plw-close') || target.hasAttribute('data-plw-overlay')) close()
    else if (target.hasAttribute('data-plw-reveal')) {
      showState(success)
      tell('preview:submitted')
    } else if (target.hasAttribute('data-plw-refuse') && refusal) showState(refusal)
    else if (target.hasAttribute('data-plw-launcher')) {
      if (isOpen) close()
      else open()
    } else if (target.hasAttribute('data-plw-copy')) copyCode(target)
  })

  function copyCode(button) {
    var code = root.querySelector('[data-plw-code]')
    var done = function (text) {
      button.textContent = text
      setTimeout(function () { button.textContent = 'Copy' }, 1500)
    }
    if (!code || !navigator.clipboard) return done('Error')
    navigator.clipboard.writeText(code.textContent).then(
      function () { done('Copied!') },
      function () { done('Error') },
    )
  }

  if (replay) replay.addEventListener('click', open)
  takeFocus()

  document.addEventListener('keydown', function (event) {
    if (!isOpen) return
    if (event.key === 'Escape') {
      close()
      return
    }
    // A modal keeps the keyboard inside while it is open.
    if (event.key === 'Tab' && modal) {
      var items = focusables()
      if (!items.length) return
      var first = items[0]
      var last = items[items.length - 1]
      var active = document.activeElement
      if (active === box || !box.contains(active)) {
        event.preventDefault()
        ;(event.shiftKey ? last : first).focus()
      } else if (event.shiftKey && active === first) {
        event.preventDefault()
        last.focus()
      } else if (!event.shiftKey && document.activeElement === last) {
        event.preventDefault()
        first.focus()
      }
    }
  })

  // ---- countdown

  var timer = root.querySelector('[data-plw-countdown]')
  if (timer) {
    var ends = Date.now() + Number(timer.getAttribute('data-plw-countdown')) * 1000
    var cells = timer.querySelectorAll('span')
    var pad = function (value) { return (value < 10 ? '0' : '') + value }
    var tick = function () {
      var left = Math.max(0, Math.round((ends - Date.now()) / 1000))
      var days = cells[0].getAttribute('data-unit') === 'days'
      var values = days
        ? [Math.floor(left / 86400), Math.floor(left / 3600) % 24, Math.floor(left / 60) % 60]
        : [Math.floor(left / 3600), Math.floor(left / 60) % 60, left % 60]
      for (var i = 0; i < cells.length; i++) cells[i].textContent = pad(values[i])
      if (left > 0) setTimeout(tick, 1000 - (Date.now() % 1000))
    }
    tick()
  }

  // ---- the embedding page

  function currentTheme() {
    return root.getAttribute('data-theme') === 'dark' ? 'dark' : 'light'
  }

  window.addEventListener('message', function (event) {
    if (event.origin !== location.origin || event.source !== window.parent) return
    var data = event.data
    if (!data || data.type !== 'navigate' || typeof data.url !== 'string') return
    var target
    try {
      target = new URL(data.url, location.href)
    } catch (error) {
      return
    }
    if (target.origin !== location.origin || !PREVIEW_PATH.test(target.pathname)) return
    if (target.pathname === location.pathname) {
      // The same template: switch the theme in place, or show the widget again.
      var theme = target.searchParams.get('theme') === 'dark' && root.hasAttribute('data-themed') ? 'dark' : 'light'
      root.setAttribute('data-theme', theme)
      document.documentElement.setAttribute('data-theme', theme)
      history.replaceState(null, '', target.pathname + target.search)
      if (!isOpen) open()
      tell('preview:ready', { theme: theme })
      return
    }
    // replace(): the frame's moves must not pile up in the embedding page's history.
    location.replace(target.pathname + target.search)
  })

  tell('preview:ready', { theme: currentTheme() })
})()
