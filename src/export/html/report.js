// codecbench report: sortable tables and a legend that hides a series. The page reads
// fully without it; nothing here fetches anything.
"use strict";
(function () {
  // The figure a cell starts with (41,132 or +2.0% or 6.84), NaN for none.
  function figure(text) {
    var found = /^\s*([+\-\u2212]?[\d,]*\.?\d+)/.exec(text);
    return found ? Number(found[1].replace(/,/g, "").replace("\u2212", "-")) : NaN;
  }

  function sortBy(table, column, th) {
    var body = table.tBodies[0];
    var rows = Array.prototype.slice.call(body.rows);
    var ascending = th.getAttribute("aria-sort") !== "ascending";
    var keyed = rows.map(function (row, index) {
      var cell = row.cells[column];
      var text = cell ? cell.textContent : "";
      return { row: row, index: index, number: figure(text), text: text };
    });
    keyed.sort(function (a, b) {
      var an = !isNaN(a.number), bn = !isNaN(b.number), order = 0;
      if (an && bn) order = a.number - b.number;
      else if (an !== bn) return an ? -1 : 1; // blanks and words last, either way
      else order = a.text.localeCompare(b.text);
      if (order === 0) return a.index - b.index;
      return ascending ? order : -order;
    });
    var fragment = document.createDocumentFragment();
    keyed.forEach(function (k) { fragment.appendChild(k.row); });
    body.appendChild(fragment);
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (cell) {
      cell.removeAttribute("aria-sort");
    });
    th.setAttribute("aria-sort", ascending ? "ascending" : "descending");
  }

  function sortable(table) {
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th, column) {
      var label = th.textContent;
      var button = document.createElement("button");
      button.type = "button";
      button.textContent = label;
      button.title = "Sort by " + label;
      th.textContent = "";
      th.appendChild(button);
      button.addEventListener("click", function () { sortBy(table, column, th); });
    });
  }

  // One tooltip for every chart: a point's data-t, beside the pointer.
  var tip = document.createElement("div");
  tip.className = "tip";
  tip.hidden = true;
  document.body.appendChild(tip);
  function hover(chart) {
    chart.addEventListener("mouseover", function (event) {
      var point = event.target.closest("[data-t]");
      if (!point) return;
      tip.textContent = point.getAttribute("data-t");
      tip.style.left = (event.pageX + 12) + "px";
      tip.style.top = (event.pageY + 12) + "px";
      tip.hidden = false;
    });
    chart.addEventListener("mouseout", function () { tip.hidden = true; });
  }

  // A panel's Pareto frontier among the points shown: the points no shown point beats
  // on both speed (right) and ratio (up). With every series shown, the drawn one stays.
  function redrawFrontier(panel, someHidden) {
    var line = panel.querySelector("polyline.frontier");
    if (!line) return;
    if (!line.hasAttribute("data-all")) line.setAttribute("data-all", line.getAttribute("points"));
    if (!someHidden) { line.setAttribute("points", line.getAttribute("data-all")); return; }
    var shown = [];
    Array.prototype.forEach.call(panel.querySelectorAll("g.pt"), function (pt) {
      if (getComputedStyle(pt).display === "none") return;
      // The point's own marker: a baseline's outline sits in a group of its own.
      var marker = pt.querySelector(":scope > circle, :scope > rect, :scope > path:not(.bar)");
      if (!marker) return;
      var box = marker.getBBox();
      shown.push([box.x + box.width / 2, box.y + box.height / 2]);
    });
    shown.sort(function (a, b) { return b[0] - a[0] || a[1] - b[1]; });
    var best = Infinity, frontier = [];
    shown.forEach(function (p) { if (p[1] < best - 0.01) { best = p[1]; frontier.push(p); } });
    frontier.reverse();
    line.setAttribute("points", frontier.map(function (p) {
      return p[0].toFixed(1) + "," + p[1].toFixed(1);
    }).join(" "));
  }

  function legend(figure) {
    var style = document.createElement("style");
    figure.appendChild(style);
    var hidden = {};
    var id = figure.id;
    function update() {
      var off = Object.keys(hidden).filter(function (s) { return hidden[s]; });
      style.textContent = off
        .map(function (s) { return "#" + id + " [data-s=\"" + s + "\"]{display:none}"; })
        .join("\n");
      each(figure, "g.panel", function (panel) { redrawFrontier(panel, off.length > 0); });
    }
    // Without scripting the legend is a plain key; here each entry becomes a button.
    Array.prototype.forEach.call(figure.querySelectorAll(".legend .key"), function (key) {
      var button = document.createElement("button");
      button.type = "button";
      button.setAttribute("data-series", key.getAttribute("data-series"));
      button.setAttribute("aria-pressed", "true");
      while (key.firstChild) button.appendChild(key.firstChild);
      key.parentNode.replaceChild(button, key);
      button.addEventListener("click", function () {
        var series = button.getAttribute("data-series");
        hidden[series] = !hidden[series];
        button.setAttribute("aria-pressed", hidden[series] ? "false" : "true");
        update();
      });
    });
  }

  function each(root, selector, action) {
    Array.prototype.forEach.call(root.querySelectorAll(selector), action);
  }

  function wire(root) {
    each(root, "table.sortable", sortable);
    each(root, "figure.chart", legend);
    each(root, "figure.chart", hover);
    each(root, "section.history", hover);
  }

  // A lazy part's content is the text of its <noscript>: made into elements here.
  function build(holder) {
    var source = holder.querySelector("noscript");
    if (!source) return;
    var markup = source.textContent;
    holder.removeChild(source);
    holder.insertAdjacentHTML("beforeend", markup);
    wire(holder);
  }

  wire(document);
  var lazy = Array.prototype.slice.call(document.querySelectorAll("div.lazy"));
  // What a first screen needs at once; the rest as it comes into view, or when idle.
  var budget = 300000;
  while (lazy.length && budget > 0) {
    var first = lazy.shift();
    var source = first.querySelector("noscript");
    budget -= source ? source.textContent.length : 0;
    build(first);
  }
  if (lazy.length) {
    var observer = "IntersectionObserver" in window ? new IntersectionObserver(function (entries) {
      entries.forEach(function (entry) {
        if (entry.isIntersecting) { observer.unobserve(entry.target); build(entry.target); }
      });
    }, { rootMargin: "1500px" }) : null;
    lazy.forEach(function (holder) { if (observer) observer.observe(holder); });
    var later = window.requestIdleCallback || function (f) { return setTimeout(f, 50); };
    var rest = lazy.slice();
    var next = function () {
      var holder = rest.shift();
      if (!holder) return;
      build(holder);
      later(next);
    };
    later(next);
    window.addEventListener("beforeprint", function () { lazy.forEach(build); });
  }
  // A printout shows what a reader would unfold.
  window.addEventListener("beforeprint", function () {
    each(document, "details", function (d) { d.open = true; });
  });
  // When the page became interactive, in ms since navigation began: what the speed
  // check reads.
  document.documentElement.setAttribute("data-ready-ms", performance.now().toFixed(1));
})();
