// The character form's budget, kept up to date as fields change. The server draws the same totals (the ruleset's
// `budget`) and checks everything again on save; this file only reads what the page declares:
//   an input with data-budget="KEY" adds to KEY's spent: a checked box its data-cost, a number its data-costs
//   entry for the level typed (levels from 1), or else its value;
//   a number with data-limits='{"KEY": [per level]}' moves KEY's limit (e.g. a skill that raises a gear limit);
//   a totals row <tr data-key="KEY" data-base="N"> shows spent and limit = N + those moves.
// Loaded as a file: the site's Content-Security-Policy forbids inline script.
"use strict";

function levelIndex(input) {
  const n = Number(input.value);
  return Number.isInteger(n) ? n - Number(input.min || 1) : -1;
}

function contribution(input) {
  if (input.type === "checkbox") return input.checked ? Number(input.dataset.cost || 0) : 0;
  if (input.dataset.costs) {
    const costs = JSON.parse(input.dataset.costs);
    const cost = costs[levelIndex(input)];
    return cost === undefined ? 0 : cost;
  }
  const n = Number(input.value);
  return Number.isInteger(n) ? n : 0;
}

function wireBudget(form) {
  const rows = form.querySelectorAll("tr[data-key]");
  const inputs = form.querySelectorAll("[data-budget], [data-limits]");
  const update = () => {
    const spent = {};
    const limits = {};
    inputs.forEach((input) => {
      const key = input.dataset.budget;
      if (key) spent[key] = (spent[key] || 0) + contribution(input);
      if (input.dataset.limits) {
        const moves = JSON.parse(input.dataset.limits);
        Object.keys(moves).forEach((k) => {
          const move = moves[k][levelIndex(input)];
          limits[k] = (limits[k] || 0) + (move === undefined ? 0 : move);
        });
      }
    });
    rows.forEach((row) => {
      const key = row.dataset.key;
      const spentCell = row.querySelector(".spent");
      const limitCell = row.querySelector(".limit");
      // A line no input feeds (an existing character's stats) keeps what the server drew.
      const shownSpent = key in spent ? spent[key] : Number(spentCell.textContent);
      const limit = Number(row.dataset.base) + (limits[key] || 0);
      spentCell.textContent = shownSpent;
      limitCell.textContent = limit;
      row.classList.toggle("over", shownSpent > limit);
    });
  };
  form.addEventListener("input", update);
  form.addEventListener("change", update);
  update();
}

// A weapon the chosen vehicle comes with (data-built-into: its vehicles) is shown as built in and cannot be bought:
// the box is emptied and disabled, its cost hidden and its "built in" mark shown; the server draws the same.
function wireBuiltIn(form) {
  const vehicle = form.querySelector("select[name=vehicle]");
  if (!vehicle) return;
  const follow = () => {
    form.querySelectorAll("input[data-built-into]").forEach((input) => {
      const builtIn = input.dataset.builtInto.split(" ").includes(vehicle.value);
      if (builtIn) input.checked = false;
      input.disabled = builtIn;
      const label = input.closest("label");
      label.classList.toggle("built-in", builtIn);
      const mark = label.querySelector(".built-in-mark");
      const cost = label.querySelector(".cost");
      if (mark) mark.hidden = !builtIn;
      if (cost) cost.hidden = builtIn;
    });
  };
  vehicle.addEventListener("change", () => {
    follow();
    form.dispatchEvent(new Event("change")); // the budget counts the emptied boxes
  });
  follow();
}

document.addEventListener("DOMContentLoaded", () => {
  document.querySelectorAll("form.sheet-form").forEach((form) => {
    wireBuiltIn(form);
    wireBudget(form);
  });
});
