// Vigil dashboard: live checking of the sentinel editor, confirmations.
// No framework; the pages work without this script.
(function () {
  "use strict";
  var csrf = (document.querySelector('meta[name="csrf-token"]') || {}).content || "";

  // Forms with data-confirm ask first.
  document.addEventListener("submit", function (e) {
    var msg = e.target.getAttribute && e.target.getAttribute("data-confirm");
    if (msg && !window.confirm(msg)) e.preventDefault();
  });

  var src = document.getElementById("source");
  if (!src) return;
  var backdrop = document.getElementById("backdrop");
  var problems = document.getElementById("problems");
  var enc = new TextEncoder(), dec = new TextDecoder();

  // Byte offsets (the server's) to string indexes.
  function index(text, bytes) {
    return dec.decode(enc.encode(text).slice(0, bytes)).length;
  }

  function el(tag, attrs, text) {
    var e = document.createElement(tag);
    for (var k in attrs) e.setAttribute(k, attrs[k]);
    if (text != null) e.textContent = text;
    return e;
  }

  function show(res) {
    var text = src.value;
    // Mark the errors in the backdrop.
    backdrop.textContent = "";
    var at = 0;
    res.errors.forEach(function (d) {
      if (!d.line) return;
      var from = index(text, d.offset), to = Math.max(index(text, d.end), from + 1);
      if (from < at || from > text.length) return;
      backdrop.appendChild(document.createTextNode(text.slice(at, from)));
      var part = text.slice(from, Math.min(to, text.length));
      if (part === "" || part === "\n") part = " " + part;
      backdrop.appendChild(el("mark", { title: d.message, "data-line": d.line, "data-column": d.column }, part));
      at = Math.min(to, text.length);
    });
    backdrop.appendChild(document.createTextNode(text.slice(at) + "\n"));
    // List them, each a button that puts the caret there.
    problems.textContent = "";
    if (res.errors.length) {
      src.setAttribute("aria-invalid", "true");
      var ul = el("ul", { "class": "errors" });
      res.errors.forEach(function (d) {
        var b = el("button", { type: "button", "class": "linkish", "data-offset": d.offset, "data-end": d.end },
          (d.line ? d.line + ":" + d.column + ": " : d.field ? d.field + ": " : "") + d.message);
        ul.appendChild(el("li")).appendChild(b);
      });
      problems.appendChild(ul);
    } else {
      src.removeAttribute("aria-invalid");
      problems.appendChild(el("p", { "class": "ok" }, "No problem found."));
    }
    (res.warnings || []).forEach(function (d) {
      problems.appendChild(el("p", { "class": "warn" }, "Warning: " + (d.line ? d.line + ":" + d.column + ": " : "") + d.message));
    });
    syncScroll();
  }

  var timer = null, seq = 0;
  function check() {
    var n = ++seq, sent = src.value;
    var body = { source: sent };
    if (src.dataset.replacing) body.replacing = Number(src.dataset.replacing);
    fetch(src.dataset.check, {
      method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf },
      body: JSON.stringify(body)
    }).then(function (r) { return r.json(); }).then(function (res) {
      if (n !== seq || sent !== src.value) return; // a newer check is on its way
      if (res.error) res = { errors: [{ message: res.error.message, offset: 0, end: 0 }], warnings: [] };
      show(res);
    }).catch(function () {});
  }
  function syncScroll() { backdrop.scrollTop = src.scrollTop; }

  src.addEventListener("input", function () {
    clearTimeout(timer);
    timer = setTimeout(check, 250);
  });
  src.addEventListener("scroll", syncScroll);
  problems.addEventListener("click", function (e) {
    var b = e.target.closest("button[data-offset]");
    if (!b) return;
    var from = index(src.value, Number(b.dataset.offset)), to = index(src.value, Number(b.dataset.end));
    src.focus();
    src.setSelectionRange(from, Math.max(to, from));
  });
  if (src.value.trim() !== "") check();
})();
