// The counters of a form's limited fields ("12 / 40" beside an input with a maxlength): kept current while the
// user types. The page works without it (the server-drawn counter and the field's hint say the limit).
"use strict";

document.querySelectorAll("input[data-counter]").forEach((input) => {
  const out = document.getElementById(input.dataset.counter);
  const limit = Number(input.getAttribute("maxlength"));
  if (!out || !limit) return;
  const update = () => {
    const n = Array.from(input.value).length; // code points, as the server counts
    out.textContent = `${n} / ${limit}`;
    out.classList.toggle("over", n > limit);
  };
  input.addEventListener("input", update);
  update();
});
