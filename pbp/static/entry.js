// The entry form's helpers (also the countdowns of the home and scenario pages). The pages work without them:
// they add the prose counter, the deadline countdown and
// show only the chosen action's fields. Loaded as a file (the site's Content-Security-Policy forbids inline script).
"use strict";

// Code points after newlines are normalised: the server counts the same way (pbp.services.entries).
function proseLength(text) {
  return Array.from(text.replace(/\r\n?/g, "\n")).length;
}

function wireCounter(area) {
  const out = document.getElementById(area.dataset.counter);
  const limit = Number(area.dataset.limit);
  if (!out || !limit) return;
  const update = () => {
    const n = proseLength(area.value);
    out.textContent = `${n} / ${limit}`;
    out.classList.toggle("over", n > limit);
  };
  area.addEventListener("input", update);
  update();
}

function wireCountdown(el) {
  const deadline = Date.parse(el.getAttribute("datetime"));
  if (Number.isNaN(deadline)) return;
  const words = el.dataset;
  const tick = () => {
    const left = Math.max(0, Math.floor((deadline - Date.now()) / 1000));
    if (left === 0) {
      el.textContent = words.passed || "0";
      return;
    }
    const d = Math.floor(left / 86400);
    const h = Math.floor((left % 86400) / 3600);
    const m = Math.floor((left % 3600) / 60);
    const s = left % 60;
    const pad = (x) => String(x).padStart(2, "0");
    const clock = `${pad(h)}:${pad(m)}:${pad(s)}`;
    const withDays = words.withDays || "{days}d {clock}";
    el.textContent = d ? withDays.replace("{days}", d).replace("{clock}", clock) : clock;
    setTimeout(tick, 1000);
  };
  tick();
}

// Each action's extra fields sit in a .choice-fields block after its radio; only the chosen one stays shown.
function wireChoices(group) {
  const radios = group.querySelectorAll('input[type="radio"]');
  const update = () => {
    radios.forEach((radio) => {
      const fields = document.getElementById(radio.dataset.fields || "");
      if (fields) fields.hidden = !radio.checked;
    });
  };
  radios.forEach((radio) => radio.addEventListener("change", update));
  update();
}

document.querySelectorAll("textarea[data-counter]").forEach(wireCounter);
document.querySelectorAll("time.countdown").forEach(wireCountdown);
document.querySelectorAll("fieldset.choices").forEach(wireChoices);
