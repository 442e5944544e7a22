// codecbench report: sortable tables and a legend that hides a series. The page reads
// fully without it; nothing here fetches anything.
"use strict";
(function () {
  function sortBy(table, column, th) {
    var body = table.tBodies[0];
    var rows = Array.prototype.slice.call(body.rows);
    var ascending = th.getAttribute("aria-sort") !== "ascending";
    var keyed = rows.map(function (row, index) {
      var cell = row.cells[column];
      var value = cell ? cell.getAttribute("data-v") : null;
      return { row: row, index: index, number: value === null ? NaN : Number(value),
        text: cell ? cell.textContent : "" };
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

  function legend(figure) {
    var style = document.createElement("style");
    figure.appendChild(style);
    var hidden = {};
    var id = figure.id;
    function update() {
      style.textContent = Object.keys(hidden).filter(function (s) { return hidden[s]; })
        .map(function (s) { return "#" + id + " [data-s=\"" + s + "\"]{display:none}"; })
        .join("\n");
    }
    Array.prototype.forEach.call(figure.querySelectorAll(".legend button"), function (button) {
      button.addEventListener("click", function () {
        var series = button.getAttribute("data-series");
        hidden[series] = !hidden[series];
        button.setAttribute("aria-pressed", hidden[series] ? "false" : "true");
        update();
      });
    });
  }

  Array.prototype.forEach.call(document.querySelectorAll("table.sortable"), sortable);
  Array.prototype.forEach.call(document.querySelectorAll("figure.chart"), legend);
  // When the page became interactive, in ms since navigation began: what the speed
  // check reads.
  document.documentElement.setAttribute("data-ready-ms", performance.now().toFixed(1));
})();
