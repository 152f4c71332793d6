// The entry form's helpers (also the countdowns of the home and scenario pages). The pages work without them:
// they add the prose counter, the deadline countdown, the draft's autosave with the leave-page warning, show only
// the chosen action's fields and let a click on the map fill in where to move. Loaded as a file (the site's
// Content-Security-Policy forbids inline script).
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

// The entry form's autosave: the text goes to the server as the writer's draft (never an entry) a moment after
// typing stops, one request at a time, the latest text winning (a 429 waits as long as Retry-After says). Leaving
// the page with text that is not the saved entry asks first; pressing Save or Preview does not.
function wireDraft(form) {
  const url = form.dataset.draft;
  const status = document.getElementById("draft-status");
  const areas = Array.from(form.querySelectorAll('textarea[name^="prose"]')); // the entry's text, not the note
  const token = form.querySelector('input[name="csrf_token"]');
  if (!url || !token || !areas.length) return;
  let timer = null;
  let sending = false;
  let again = false;
  let leaving = false;
  let sent = areas.map((a) => a.value).join("\u0000");
  const say = (text) => {
    if (status) status.textContent = text;
  };
  const send = () => {
    timer = null;
    const text = areas.map((a) => a.value).join("\u0000");
    if (text === sent) return;
    if (sending) {
      again = true;
      return;
    }
    sending = true;
    const body = new URLSearchParams({ csrf_token: token.value });
    areas.forEach((a) => body.append(a.name, a.value));
    fetch(url, { method: "POST", body, credentials: "same-origin", headers: { Accept: "application/json" } })
      .then((response) =>
        response.json().catch(() => ({})).then((answer) => {
          if (response.ok) {
            sent = text;
            if (answer.csrf_token) token.value = answer.csrf_token; // the form's token stays fresh while autosaved
            const words = answer.late ? form.dataset.draftLate : form.dataset.draftSaved;
            say((words || "").replace("{time}", answer.time));
          } else if (response.status === 429) {
            const wait = Number(response.headers.get("Retry-After")) || 2;
            timer = setTimeout(send, wait * 1000);
          } else {
            say(answer.message || form.dataset.draftFailed || "");
          }
        }),
      )
      .catch(() => say(form.dataset.draftFailed || ""))
      .finally(() => {
        sending = false;
        if (again) {
          again = false;
          schedule();
        }
      });
  };
  const schedule = () => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(send, 2500);
  };
  areas.forEach((a) => a.addEventListener("input", schedule));
  const unsaved = () => form.dataset.unsaved === "1" || areas.some((a) => a.value !== a.defaultValue);
  form.addEventListener("submit", () => {
    leaving = true;
    if (timer) clearTimeout(timer);
  });
  window.addEventListener("beforeunload", (event) => {
    if (leaving || !unsaved()) return;
    event.preventDefault();
    event.returnValue = "";
  });
}

// The map to act on: a click on the field fills in x and y of the move chosen (the major's full move or leave when
// chosen, else the minor move, else a full move), picks "the point x, y" and marks the point; a click off the field
// says so and fills nothing. The x, y inputs stay the way without a mouse (and without this script).
function wireMap(section) {
  const svg = section.querySelector(".map-scroll svg.battlemap");
  const said = document.getElementById("map-said");
  const edges = (section.dataset.field || "").split(" ").map(Number);
  if (!svg || !said || edges.length !== 4 || !svg.getScreenCTM) return;
  const [left, top, right, bottom] = edges;
  const fill = (text, values) => text.replace(/\{(\w+)\}/g, (all, key) => (key in values ? values[key] : all));
  const radio = (name, value) => document.querySelector(`input[type="radio"][name="${name}"][value="${value}"]`);
  const slot = () => {
    for (const kind of ["full_move", "leave"]) {
      const r = radio("major", kind);
      if (r && r.checked && !r.disabled) return [r, kind];
    }
    const move = radio("minor", "move");
    if (move && !move.disabled) return [move, "minor"];
    const full = radio("major", "full_move");
    return full && !full.disabled ? [full, "full_move"] : [null, null];
  };
  let mark = null;
  svg.addEventListener("click", (event) => {
    const point = svg.createSVGPoint();
    point.x = event.clientX;
    point.y = event.clientY;
    const at = point.matrixTransform(svg.getScreenCTM().inverse());
    const x = Math.round(at.x);
    const y = Math.round(at.y);
    if (x < left || x > right || y < top || y > bottom) {
      said.textContent = fill(section.dataset.outside, { left, top, right, bottom });
      return;
    }
    const [choice, prefix] = slot();
    if (!choice) {
      said.textContent = section.dataset.noMove || "";
      return;
    }
    if (!choice.checked) {
      choice.checked = true;
      choice.dispatchEvent(new Event("change", { bubbles: true }));
    }
    const toward = document.querySelector(`select[name="${prefix}_toward"]`);
    const xs = document.querySelector(`input[name="${prefix}_x"]`);
    const ys = document.querySelector(`input[name="${prefix}_y"]`);
    if (!toward || !xs || !ys) return;
    toward.value = "point";
    xs.value = String(x);
    ys.value = String(y);
    if (!mark) {
      mark = document.createElementNS("http://www.w3.org/2000/svg", "circle");
      mark.setAttribute("class", "picked");
      svg.appendChild(mark);
    }
    const r = Math.max(right - left, bottom - top) / 80;
    mark.setAttribute("cx", String(x));
    mark.setAttribute("cy", String(y));
    mark.setAttribute("r", String(r));
    const action = (choice.parentElement ? choice.parentElement.textContent : "").trim();
    said.textContent = fill(section.dataset.picked, { x, y, action });
  });
}

document.querySelectorAll("textarea[data-counter]").forEach(wireCounter);
document.querySelectorAll("section.map[data-field]").forEach(wireMap);
document.querySelectorAll("form[data-draft]").forEach(wireDraft);
document.querySelectorAll("time.countdown").forEach(wireCountdown);
document.querySelectorAll("fieldset.choices").forEach(wireChoices);
