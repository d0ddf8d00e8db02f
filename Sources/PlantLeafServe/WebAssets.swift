import PlantLeafCore

/// The page `plantleaf serve` shows, embedded so the binary needs no files and the page no
/// outside request of any kind: its script and style are served from the same binary, no fonts,
/// no CDN. Large type and strong contrast for a phone in a bright greenhouse; every control is a
/// native one, so it works from a keyboard too.
enum WebAssets {
    static let page = html(document(title: "PlantLeaf", head: linkedAssets + scriptTag, main: #"""
        <nav><a id="live-link" href="/live" hidden>Live camera</a></nav>
        <p class="hint">Photograph one leaf, close up, on a plain background.</p>
        <label class="button" for="photo">Take or choose a photo</label>
        <input id="photo" type="file" accept="image/*" capture="environment">
        <img id="preview" alt="" hidden>
        <p id="status" role="status" aria-live="polite"></p>
        """# + "\n" + resultSection))

    /// The camera's page: its frames as they are read, and the newest reading beside them.
    static let livePage = html(document(title: "PlantLeaf: live camera", head: linkedAssets + scriptTag, main: #"""
        <nav><a href="/">Photograph a leaf</a> · <a href="/history">History</a></nav>
        <img id="frame" src="/stream.mjpg" alt="The camera's newest frame, as the model was given it">
        <p id="status" role="status" aria-live="polite">Waiting for the camera's first reading…</p>
        """# + "\n" + resultSection))

    /// Where the script draws a reading, on the photo page and the camera's.
    private static let resultSection = #"""
        <section id="result" hidden>
        <h2 id="verdict"></h2>
        <p id="meaning"></p>
        <ol id="top"></ol>
        <p id="timing" class="hint"></p>
        </section>
        """#

    /// The icon and the style sheet, as the pages link them once signed in (or without a token).
    static let linkedAssets = #"""
        <link rel="icon" href="/favicon.svg" type="image/svg+xml">
        <link rel="stylesheet" href="/style.css">
        """#
    private static let scriptTag = "\n<script src=\"/app.js\" defer></script>"

    /// A whole page: the head every page has (its title, then `head`), and `main`, the page's
    /// content under the PlantLeaf heading.
    static func document(title: String, head: String, main: String) -> String {
        #"""
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        """# + "\n<title>\(title)</title>\n\(head)\n" + #"""
        </head>
        <body>
        <main>
        <h1>PlantLeaf</h1>
        """# + "\n\(main)\n" + #"""
        </main>
        </body>
        </html>
        """#
    }

    /// The page shown instead when the server has a token and the browser has not signed in. The
    /// style sheet and the icon need the token too, so the page carries both: the style inline,
    /// the icon as a data: address, each allowed by the page's own policy (`signInPolicy`). The
    /// hidden user name is for password managers, which then keep the token under "plantleaf".
    static func signInPage(wrongToken: Bool) -> HTTPResponse {
        let notice = wrongToken ? "<p class=\"error\" role=\"alert\">That is not this server's token.</p>\n" : ""
        let head = "<link rel=\"icon\" href=\"\(iconAddress)\" type=\"image/svg+xml\">\n<style>" + styleText + "</style>"
        var response = html(document(title: "PlantLeaf: sign in", head: head, main: notice + #"""
            <form method="post" action="/sign-in">
            <input name="user" type="text" value="plantleaf" autocomplete="username" hidden>
            <label for="token">This server's token (from its --token-file)</label>
            <input id="token" name="token" type="password" autocomplete="current-password" required>
            <button class="button" type="submit">Sign in</button>
            </form>
            """#))
        response.status = wrongToken ? 401 : 200
        return response
    }

    private static let styleText = String(decoding: style.body, as: UTF8.self)
    private static let iconAddress = "data:image/svg+xml;base64," + Base64.encode(icon.body)

    /// The sign-in page's content security policy: its inline style by its SHA-256, its icon's
    /// data: address, and a form posted back here; nothing else, not even the server's own assets.
    static let signInPolicy = "default-src 'none'; style-src 'sha256-" + Base64.encode(SHA256.digest(of: style.body)) + "'; "
        + "img-src data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

    static let script = HTTPResponse(status: 200, contentType: "text/javascript; charset=utf-8", body: Array(#"""
        "use strict";
        // The verdicts' meanings, as `plantleaf classify` words them: only a diagnosis is an answer.
        const meanings = {
          "diagnosis": "The top class is the answer.",
          "uncertain": "Not a diagnosis: the model is not sure of any class. Try a closer, sharper photo of one leaf.",
          "no-leaf": "Not a diagnosis: no plant material in view.",
          "no-picture": "Not a diagnosis: the picture is dark, blown out or flat."
        };

        // "Tomato___Early_blight" → "Tomato — Early blight", as the terminal shows labels.
        function displayName(label) {
          return label.split("___").map(part => part.replace(/_/g, " ").split(" ").filter(Boolean).join(" ")).join(" — ");
        }

        const status = document.getElementById("status");
        const result = document.getElementById("result");

        // Milliseconds from the picture to the scores, from a record's "timing_ms" (a camera's
        // record has no postprocess stage).
        function readTime(timing) {
          return timing.prepare + timing.invoke + (timing.postprocess || 0);
        }

        // A result (an upload's, or a camera reading's) as the verdict, the top 3 and `timing`.
        function show(answer, timing) {
          const verdict = answer.verdict;
          document.getElementById("verdict").textContent = verdict === "diagnosis" ? displayName(answer.top[0].label) : verdict;
          document.getElementById("verdict").className = verdict;
          // A result that is not a diagnosis carries its reason's advice: what to do next.
          document.getElementById("meaning").textContent = answer.advice || meanings[verdict] || "";
          const likeness = answer.leaf_likeness === undefined ? ""
            : answer.leaf_likeness === null ? "Generalist check skipped: " + answer.leaf_likeness_skipped + ". "
            : "Leaf-likeness " + Math.round(answer.leaf_likeness * 100) + " % (the generalist check). ";
          const list = document.getElementById("top");
          list.replaceChildren(...answer.top.slice(0, 3).map(entry => {
            const item = document.createElement("li");
            const bar = document.createElement("meter");
            bar.min = 0; bar.max = 1; bar.value = entry.score;
            const text = document.createElement("span");
            text.textContent = (entry.score * 100).toFixed(1) + " %  " + displayName(entry.label);
            item.append(bar, text);
            return item;
          }));
          document.getElementById("timing").textContent = likeness + timing;
          result.hidden = false;
        }

        // The photo page: the picked photo is sent as a form, its result shown.
        const photo = document.getElementById("photo");
        if (photo) {
          const preview = document.getElementById("preview");
          photo.addEventListener("change", async () => {
            const file = photo.files[0];
            if (!file) return;
            if (preview.src) URL.revokeObjectURL(preview.src);
            preview.src = URL.createObjectURL(file);
            preview.hidden = false;
            result.hidden = true;
            status.textContent = "Reading the leaf…";
            const form = new FormData();
            form.append("image", file, file.name);
            try {
              const response = await fetch("/api/classify", { method: "POST", body: form, credentials: "same-origin" });
              const answer = await response.json();
              if (!response.ok) {
                status.textContent = answer.error || ("The server answered " + response.status + ".");
                return;
              }
              status.textContent = "";
              const t = answer.timing_ms;
              show(answer, "Read on the server in " + readTime(t).toFixed(1) + " ms (decode and resize " +
                t.prepare.toFixed(1) + " ms, model " + t.invoke.toFixed(1) + " ms).");
            } catch (error) {
              status.textContent = "The server could not be reached: " + error.message;
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
                status.textContent = answer.error || ("The server answered " + response.status + ".");
              } else if (answer.frame + " " + answer.time !== shown) {
                shown = answer.frame + " " + answer.time;
                status.textContent = "";
                show(answer, "Frame " + answer.frame + " captured " + answer.time + ", read in " +
                  readTime(answer.timing_ms).toFixed(1) + " ms.");
              }
            } catch (error) {
              status.textContent = "The server could not be reached: " + error.message;
            }
            setTimeout(refresh, 1000);
          }
          refresh();
        }
        """#.utf8))

    static let style = HTTPResponse(status: 200, contentType: "text/css; charset=utf-8", body: Array(#"""
        :root { color-scheme: light; --ink: #000; --paper: #fff; --accent: #0b5d1e; --warn: #8a4b00; }
        * { box-sizing: border-box; }
        body { margin: 0; background: var(--paper); color: var(--ink); font: 20px/1.4 system-ui, sans-serif; }
        main { max-width: 40rem; margin: 0 auto; padding: 1rem; }
        h1 { font-size: 2rem; margin: 0 0 .5rem; color: var(--accent); }
        h2 { font-size: 1.6rem; margin: 1rem 0 .25rem; }
        .hint { color: #333; }
        .button { display: block; width: 100%; padding: 1rem; border: 3px solid var(--ink); border-radius: .5rem;
                  background: var(--accent); color: #fff; font: inherit; font-weight: bold; text-align: center; cursor: pointer; }
        .button:focus-within, .button:focus, input:focus { outline: 4px solid #f5a400; outline-offset: 2px; }
        #photo { width: 100%; margin: .75rem 0; font: inherit; }
        nav { margin: 0 0 .5rem; }
        nav a { color: var(--accent); font-weight: bold; }
        .chart { display: block; width: 100%; height: auto; margin: .5rem 0; }
        table { border-collapse: collapse; margin: .5rem 0; }
        th, td { text-align: left; padding: .25rem 1rem .25rem 0; border-bottom: 1px solid #999; }
        #frame { display: block; width: 100%; max-width: 448px; image-rendering: auto; margin: .5rem 0; border: 2px solid var(--ink); }
        #preview { display: block; width: 100%; max-height: 50vh; object-fit: contain; margin: .5rem 0; border: 2px solid var(--ink); }
        #top { padding-left: 1.5rem; }
        #top li { margin: .5rem 0; }
        meter { display: block; width: 100%; height: 1.2rem; }
        .diagnosis { color: var(--accent); }
        .uncertain, .no-leaf, .no-picture, .error { color: var(--warn); }
        form input { display: block; width: 100%; padding: .75rem; margin: .5rem 0 1rem; font: inherit; border: 2px solid var(--ink); }
        [hidden] { display: none !important; }
        """#.utf8))

    /// The page's tab icon, a leaf. Without one, browsers ask for /favicon.ico and log its 404
    /// as an error in the console; a data: address instead would need a wider img-src.
    static let icon = HTTPResponse(status: 200, contentType: "image/svg+xml", body: Array(#"""
        <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><path fill="#0b5d1e" d="M28 3C13 3 4 10 4 20c0 3 1 6 3 8l2-1c2-6 7-11 13-14-5 4-9 9-11 15 2 1 4 1 6 1 11 0 15-10 11-26z"/></svg>
        """#.utf8))

    private static func html(_ text: String) -> HTTPResponse {
        HTTPResponse(status: 200, contentType: "text/html; charset=utf-8", body: Array(text.utf8))
    }
}
