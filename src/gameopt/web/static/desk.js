// gameopt web: a little plain JavaScript. Every page works without it.
(function () {
  "use strict";
  // Forms that delete ask first.
  document.querySelectorAll("form[data-confirm]").forEach(function (form) {
    form.addEventListener("submit", function (ev) {
      if (!window.confirm(form.getAttribute("data-confirm"))) { ev.preventDefault(); }
    });
  });
  // Print buttons on the print views.
  document.querySelectorAll("[data-print]").forEach(function (b) {
    b.addEventListener("click", function () { window.print(); });
  });
  // The public page asks the server whether the tournament changed, and reloads when it has.
  var live = document.getElementById("live");
  if (!live || !window.fetch) { return; }
  var url = live.getAttribute("data-state");
  var seen = live.getAttribute("data-version");
  var every = parseInt(live.getAttribute("data-poll"), 10) || 2000;
  var status = document.getElementById("live-status");
  var etag = null;
  function poll() {
    var headers = etag ? { "If-None-Match": etag } : {};
    fetch(url, { headers: headers, cache: "no-store" }).then(function (r) {
      if (status) { status.classList.remove("off"); }
      if (r.status === 304) { return null; }
      etag = r.headers.get("ETag");
      return r.json();
    }).then(function (data) {
      if (data && data.version !== seen) { window.location.reload(); return; }
      window.setTimeout(poll, every);
    }).catch(function () {
      if (status) { status.classList.add("off"); }
      window.setTimeout(poll, every * 2);
    });
  }
  window.setTimeout(poll, every);
})();
