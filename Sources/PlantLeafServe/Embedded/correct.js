"use strict";
// "Wrong? Tell PlantLeaf what this is" under a result: the form is sent with the picture it
// names (on the photo page, the photo picked; elsewhere the server's own copy, by its address)
// and the server's answer, in the page's language, shown under it.
for (const form of document.querySelectorAll("form.correct-form")) {
  const status = form.querySelector(".correct-status");
  form.addEventListener("submit", async event => {
    event.preventDefault();
    const body = new FormData(form);
    if (body.get("picture") === "photo") {
      const photo = document.getElementById("photo");
      if (photo && photo.files[0]) body.append("image", photo.files[0], photo.files[0].name);
    }
    status.textContent = form.dataset.teaching;
    status.title = "";
    try {
      const response = await fetch(form.action, { method: "POST", body: body, credentials: "same-origin" });
      const answer = await response.json();
      status.textContent = answer.message || answer.error || String(response.status);
      status.title = answer.error || "";
      status.className = "correct-status " + (response.ok ? "diagnosis" : "uncertain");
    } catch (error) {
      status.textContent = form.dataset.unreachable;
      status.title = error.message;
    }
  });
}
