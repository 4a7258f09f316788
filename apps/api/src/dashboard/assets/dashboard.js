// The dashboard's one script, progressive enhancement only: every page works without it.
// Served from the service itself (CSP script-src 'self'); no inline script anywhere.
'use strict';

document.addEventListener('DOMContentLoaded', function () {
  // Copy buttons: shown only where the script runs, next to the field they copy.
  document.querySelectorAll('[data-copy-target]').forEach(function (button) {
    var field = document.getElementById(button.getAttribute('data-copy-target'));
    var status = document.querySelector('[data-copy-status]');
    if (!field) return;
    button.hidden = false;
    button.addEventListener('click', function () {
      var done = function () {
        if (status) status.textContent = 'Copied to the clipboard.';
      };
      var fallback = function () {
        field.focus();
        field.select();
        if (status) status.textContent = 'Selected: press Ctrl+C (or Cmd+C) to copy.';
      };
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(field.value).then(done, fallback);
      } else {
        fallback();
      }
    });
  });

  // The key field selects its whole value when focused, so a keyboard user copies it at once.
  document.querySelectorAll('[data-copy-source]').forEach(function (field) {
    field.addEventListener('focus', function () {
      field.select();
    });
  });
});
