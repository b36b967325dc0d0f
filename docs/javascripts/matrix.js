// The REQ coverage matrix's filters: hide the rows whose data-document, data-status or
// data-source differ from the chosen values (an empty value is "all"). No framework.
(function () {
  "use strict";

  function apply(filters) {
    var wanted = {};
    filters.forEach(function (select) {
      wanted[select.dataset.filter] = select.value;
    });
    var rows = document.querySelectorAll("tr.req-row");
    var shown = 0;
    rows.forEach(function (row) {
      var visible = Object.keys(wanted).every(function (key) {
        return !wanted[key] || row.dataset[key] === wanted[key];
      });
      row.hidden = !visible;
      if (visible) shown += 1;
    });
    document.querySelectorAll(".req-document").forEach(function (block) {
      block.hidden = block.querySelector("tr.req-row:not([hidden])") === null;
    });
    var counter = document.querySelector(".req-shown");
    if (counter) counter.textContent = shown + " of " + rows.length + " shown";
  }

  function setUp() {
    var filters = Array.prototype.slice.call(document.querySelectorAll("select[data-filter]"));
    if (!filters.length) return;
    // ?document=SPEC-04&status=failing&source=seed preselects the filters: a link to a view
    var query = new URLSearchParams(window.location.search);
    filters.forEach(function (select) {
      var given = query.get(select.dataset.filter);
      if (given !== null) select.value = given;
      select.addEventListener("change", function () { apply(filters); });
    });
    apply(filters);
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", setUp);
  } else {
    setUp();
  }
})();
