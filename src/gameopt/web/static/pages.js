// gameopt web: the system pages' live parts (plain JavaScript; every page works without it).
(function () {
  "use strict";
  // The live plot of the best error over epochs: same geometry as web/charts.py. Built as
  // markup of numbers only (no user text), parsed by the HTML parser as inline SVG.
  function drawPlot(box, points, restarts) {
    var width = 560, height = 220, left = 44, right = 12, top = 12, bottom = 34;
    var w = width - left - right, h = height - top - bottom;
    var xmax = 1, ymax = 1;
    points.forEach(function (p) { xmax = Math.max(xmax, p[0]); ymax = Math.max(ymax, p[1]); });
    function sx(x) { return (left + w * x / xmax).toFixed(1); }
    function sy(y) { return (top + h * (1 - y / ymax)).toFixed(1); }
    var out = ['<svg class="chart" id="live-svg" data-points="' + points.length + '" width="' +
               width + '" height="' + height + '" viewBox="0 0 ' + width + " " + height + '">',
               '<rect x="' + left + '" y="' + top + '" width="' + w + '" height="' + h +
               '" fill="#fff" stroke="#aab5bb"/>'];
    for (var k = 0; k < 5; k++) {
      var yv = ymax * k / 4;
      out.push('<text x="' + (left - 4) + '" y="' + (Number(sy(yv)) + 4) + '" font-size="11" ' +
               'text-anchor="end" fill="#5f6b73">' + Math.round(yv * 100) / 100 + "</text>");
    }
    out.push('<text x="' + (left + w) + '" y="' + (height - 18) + '" font-size="11" ' +
             'text-anchor="end" fill="#5f6b73">' + xmax + "</text>");
    out.push('<text x="' + (left + w / 2) + '" y="' + (height - 4) + '" font-size="12" ' +
             'text-anchor="middle">epochs</text>');
    var mid = (top + h / 2).toFixed(0);
    out.push('<text x="12" y="' + mid + '" font-size="12" text-anchor="middle" ' +
             'transform="rotate(-90 12 ' + mid + ')">best error</text>');
    restarts.forEach(function (x) {
      out.push('<line class="restart" x1="' + sx(x) + '" x2="' + sx(x) + '" y1="' + top +
               '" y2="' + (top + h) + '" stroke="#8a5a00" stroke-dasharray="4 3"/>');
    });
    if (points.length) {
      var d = "M" + sx(0) + " " + sy(points[0][1]);
      points.forEach(function (p) { d += "H" + sx(p[0]) + "V" + sy(p[1]); });
      out.push('<path class="line" d="' + d + '" fill="none" stroke="#1f6f50" stroke-width="2"/>');
    }
    out.push("</svg>");
    box.innerHTML = out.join("");
  }

  // Read a text/event-stream body: calls onEvent(name, data) for each event.
  function readEvents(response, onEvent) {
    var reader = response.body.getReader();
    var decoder = new TextDecoder();
    var buffer = "";
    function pump() {
      return reader.read().then(function (chunk) {
        if (chunk.done) { return; }
        buffer += decoder.decode(chunk.value, { stream: true });
        var parts = buffer.split("\n\n");
        buffer = parts.pop();
        parts.forEach(function (part) {
          var name = "message", data = "";
          part.split("\n").forEach(function (line) {
            if (line.indexOf("event: ") === 0) { name = line.slice(7); }
            if (line.indexOf("data: ") === 0) { data += line.slice(6); }
          });
          onEvent(name, JSON.parse(data));
        });
        return pump();
      });
    }
    return pump();
  }

  function errorText(body) {
    var doc = new DOMParser().parseFromString(body, "text/html");
    var e = doc.querySelector(".error");
    return e ? e.textContent : body.slice(0, 300);
  }

  // Sudoku: the evolution streams its progress; other methods post the form as usual.
  var form = document.getElementById("solve-form");
  if (form && window.fetch && window.AbortController) {
    var live = document.getElementById("live");
    var plot = document.getElementById("live-plot");
    var status = document.getElementById("live-status");
    var result = document.getElementById("result");
    var stop = document.getElementById("stop-button");
    var controller = null;
    stop.addEventListener("click", function () { if (controller) { controller.abort(); } });
    form.addEventListener("submit", function (ev) {
      var method = document.getElementById("method").value;
      if (method !== "evolution" || (ev.submitter && ev.submitter.id !== "solve-button")) { return; }
      ev.preventDefault();
      var points = [], restarts = [], run = 1;
      controller = new AbortController();
      live.hidden = false;
      stop.hidden = false;
      status.textContent = "starting…";
      result.replaceChildren();
      drawPlot(plot, points, restarts);
      fetch(form.getAttribute("data-stream"), { method: "POST", body: new FormData(form),
                                                signal: controller.signal }).then(function (r) {
        if (!r.ok) {
          return r.text().then(function (body) { throw new Error(errorText(body)); });
        }
        return readEvents(r, function (name, data) {
          if (name === "progress") {
            data.points.forEach(function (p) {  // [epochs, best error, run]
              if (p[2] !== run) {
                restarts.push(points.length ? points[points.length - 1][0] : 0);
                run = p[2];
              }
              points.push([p[0], p[1]]);
            });
            status.textContent = "run " + run + ", " + data.epochs + " epochs, best error " + data.best;
            drawPlot(plot, points, restarts);
          } else if (name === "done") {
            live.hidden = true;
            result.innerHTML = data.html;
          } else if (name === "error") {
            throw new Error(data.message);
          }
        });
      }).catch(function (e) {
        status.textContent = e.name === "AbortError" ? "stopped at your request" : "";
        if (e.name !== "AbortError") {
          var p = document.createElement("p");
          p.className = "error"; p.id = "error-stream"; p.setAttribute("role", "alert");
          p.textContent = e.message;
          result.replaceChildren(p);
        }
      }).finally(function () { stop.hidden = true; controller = null; });
    });
  }
})();
