// The personality grid as a picture you click (the kancolle sheet): a click on a cell cycles its mark — → ○ → × → —,
// a click in a gap column blacks that gap out. Each cell keeps its select and each gap its radio button, which are
// what the form posts (and what works without JavaScript and from the keyboard).
(function () {
  "use strict";
  var ORDER = ["", "merit", "weakness"];
  function paint(cell, select) {
    cell.classList.remove("held", "merit", "weakness");
    if (select.value) cell.classList.add("held", select.value);
  }
  function blackOut(table, gap) {
    table.querySelectorAll(".gap").forEach(function (g) {
      g.classList.toggle("blacked", g.dataset.gap === gap);
    });
    var radio = table.querySelector('input[name="gap"][value="' + gap + '"]');
    if (radio) radio.checked = true;
  }
  document.querySelectorAll("table.personality-grid.clickable").forEach(function (table) {
    table.querySelectorAll("td.cell").forEach(function (cell) {
      var select = cell.querySelector("select");
      if (!select) return;
      select.addEventListener("change", function () { paint(cell, select); });
      cell.addEventListener("click", function (event) {
        if (event.target === select || event.target.tagName === "OPTION") return;
        event.preventDefault();
        select.value = ORDER[(ORDER.indexOf(select.value) + 1) % ORDER.length];
        paint(cell, select);
      });
    });
    table.querySelectorAll(".gap[data-gap]").forEach(function (g) {
      g.addEventListener("click", function () { blackOut(table, g.dataset.gap); });
    });
    table.querySelectorAll('input[name="gap"]').forEach(function (radio) {
      radio.addEventListener("change", function () { blackOut(table, radio.value); });
    });
  });
})();
