"use strict";
// The page's words in its language, as the server wrote them into the page from its catalogue;
// class names and advice come with each answer ("display", "advice"), in the same language.
const texts = JSON.parse(document.getElementById("texts").textContent);

// The text of `key` with each {name} filled in from `values`.
function say(key, values) {
  let text = texts[key] || key;
  for (const [name, value] of Object.entries(values || {})) text = text.replace("{" + name + "}", value);
  return text;
}

const status = document.getElementById("status");
const result = document.getElementById("result");
const details = document.getElementById("details");
const topList = document.getElementById("top");
// The disease classes this server has sample leaves of, to show beside a diagnosis.
const referenceClasses = JSON.parse(document.getElementById("reference-classes").textContent);

// A problem in plain words on the status line, and what the server or browser said behind "Details".
function problem(message, technical) {
  status.textContent = message;
  document.getElementById("problem-text").textContent = technical;
  document.getElementById("problem").hidden = false;
}

function clearProblem(message) {
  status.textContent = message;
  document.getElementById("problem").hidden = true;
}

// Milliseconds from the picture to the scores, from a record's "timing_ms" (a camera's
// record has no postprocess stage).
function readTime(timing) {
  return timing.prepare + timing.invoke + (timing.postprocess || 0);
}

// A capture time on the phone's own clock: "today 15:18", "yesterday 09:02", else "2026-12-03 15:18".
function readableTime(text) {
  const time = new Date(text);
  if (isNaN(time.getTime())) return text;
  const pad = number => String(number).padStart(2, "0");
  const clock = pad(time.getHours()) + ":" + pad(time.getMinutes());
  const midnight = day => new Date(day.getFullYear(), day.getMonth(), day.getDate()).getTime();
  const daysAgo = Math.round((midnight(new Date()) - midnight(time)) / 86400000);
  if (daysAgo === 0) return say("page.today", { time: clock });
  if (daysAgo === 1) return say("page.yesterday", { time: clock });
  return time.getFullYear() + "-" + pad(time.getMonth() + 1) + "-" + pad(time.getDate()) + " " + clock;
}

// A result (an upload's, or a camera reading's): first what the grower should know and do, then
// for a diagnosis its top classes; the rest (other results' scores, codes, times) behind Details.
function show(answer, timing) {
  const verdict = answer.verdict;
  const heading = document.getElementById("verdict");
  // A class the grower taught is the answer as they wrote it, and the page says so.
  const taught = answer.answer_from === "lessons" && verdict === "diagnosis";
  heading.textContent = taught ? answer.taught : verdict === "diagnosis" ? answer.top[0].display : say("verdict." + verdict + ".heading");
  heading.className = verdict;
  // The advice comes with the answer, worded for a photo or for a camera.
  document.getElementById("meaning").textContent = taught ? say("page.taught-answer") : (answer.advice || "");
  topList.replaceChildren(...answer.top.slice(0, 3).map(entry => {
    const item = document.createElement("li");
    const bar = document.createElement("meter");
    bar.min = 0; bar.max = 1; bar.value = entry.score;
    const score = document.createElement("span");
    score.className = "score";
    score.textContent = (entry.score * 100).toFixed(1) + " %";
    const name = document.createElement("span");
    name.textContent = " " + entry.display;
    item.append(bar, score, name);
    return item;
  }));
  // The model names a class for any picture: only a diagnosis shows it as the answer.
  if (verdict === "diagnosis" && !taught) document.getElementById("meaning").after(topList);
  else document.getElementById("verdict-words").after(topList);
  showReferences(verdict === "diagnosis" && !taught ? answer.top[0] : null);
  // What was found, in words; the machine codes (for a report, the docs) behind their own toggle.
  const verdictName = say("verdict." + verdict + ".name");
  document.getElementById("verdict-words").textContent = answer.reason
    ? say("page.result-words.reason", { verdict: verdictName, reason: say("reason-words." + answer.reason) })
    : say("page.result-words", { verdict: verdictName });
  document.getElementById("codes").textContent = verdict + (answer.reason ? " · " + answer.reason : "");
  const likeness = answer.leaf_likeness === undefined ? ""
    : answer.leaf_likeness === null ? say("page.likeness-skipped", { why: answer.leaf_likeness_skipped }) + " "
    : say("page.likeness", { percent: Math.round(answer.leaf_likeness * 100) }) + " ";
  document.getElementById("timing").textContent = likeness + timing;
  result.hidden = false;
}

// Two sample leaves of a diagnosed disease to compare with, when the server has them; none else.
function showReferences(best) {
  const references = document.getElementById("references");
  const shown = best !== null && referenceClasses.includes(best.label);
  references.hidden = !shown;
  if (!shown) return;
  for (const number of [0, 1]) {
    const picture = document.getElementById("reference-" + number);
    const address = "/api/reference-picture?class=" + encodeURIComponent(best.label) + "&n=" + number;
    if (picture.getAttribute("src") !== address) picture.src = address;
    picture.alt = say("page.references.photo", { class: best.display });
  }
}

// What to say of a refused upload, by its status.
const refusals = { 413: "page.problem.too-large", 422: "page.problem.not-an-image", 503: "page.problem.busy" };

// The photo page: the picked photo is sent as a form, its result shown.
const photo = document.getElementById("photo");
if (photo) {
  const preview = document.getElementById("preview");
  // A file the browser cannot draw leaves no empty box either (the server's answer says why).
  preview.addEventListener("error", () => { preview.hidden = true; });
  photo.addEventListener("change", async () => {
    const file = photo.files[0];
    if (!file) return;
    if (preview.src) URL.revokeObjectURL(preview.src);
    preview.src = URL.createObjectURL(file);
    preview.hidden = false;
    result.hidden = true;
    clearProblem(say("page.reading"));
    const form = new FormData();
    form.append("image", file, file.name);
    try {
      const response = await fetch("/api/classify", { method: "POST", body: form, credentials: "same-origin" });
      const answer = await response.json();
      if (!response.ok) {
        // No picture to show of a file that is none: the message alone, not an empty box.
        preview.hidden = true;
        problem(say(refusals[response.status] || "page.problem.other"), answer.error || String(response.status));
        return;
      }
      clearProblem("");
      const t = answer.timing_ms;
      show(answer, say("page.upload-time", { total: readTime(t).toFixed(1), prepare: t.prepare.toFixed(1), model: t.invoke.toFixed(1) }));
    } catch (error) {
      problem(say("page.problem.unreachable"), error.message);
    }
  });
  // The way to the live view, when this server has a camera.
  fetch("/api/health", { credentials: "same-origin" }).then(response => response.json()).then(health => {
    if (health.camera && health.camera !== "none") document.getElementById("live-link").hidden = false;
  }).catch(() => {});
}

// The live page: the newest reading, asked for every second (the frames come by the stream).
if (document.getElementById("frame")) {
  let shown = "";
  async function refresh() {
    try {
      // Until the camera's first reading there is none to ask for (and a 404 each second
      // would fill the console): the health says when there is.
      const health = await (await fetch("/api/health", { credentials: "same-origin" })).json();
      if (health.camera === "starting") {
        setTimeout(refresh, 1000);
        return;
      }
      const response = await fetch("/api/latest", { credentials: "same-origin" });
      const answer = await response.json();
      if (!response.ok) {
        problem(say("page.problem.other"), answer.error || String(response.status));
      } else if (answer.frame + " " + answer.time !== shown) {
        shown = answer.frame + " " + answer.time;
        clearProblem("");
        show(answer, say("page.frame-time", { frame: answer.frame, time: readableTime(answer.time),
                                              total: readTime(answer.timing_ms).toFixed(1) }));
      }
    } catch (error) {
      problem(say("page.problem.unreachable"), error.message);
    }
    setTimeout(refresh, 1000);
  }
  refresh();
}
