"""Drives the page of `plantleaf serve` in headless Chromium, as a person with a phone would:
loads it, picks a photo with the file input, waits for the answer, and prints what the page
shows (and what the browser logged) as one JSON object on stdout.

With --history it opens /history as a phone shows it (390x844 CSS pixels) and reports its events,
whether their pictures loaded, and the smallest type size of the readings table.

With --live it opens the camera's page (URL is then that of /live) instead, and watches the
frame and the reading until each has changed at least once. With --sign-in it opens the page of
a server that has a token, reads whether the sign-in page is styled, and signs in with TOKEN.

With --phone the browser is a phone's size (390 x 844 CSS pixels, as an iPhone 12 to 15), and
with --lang CODE it asks for that language first (Accept-Language), as a phone set to it does.

usage: serve_page.py [--phone] [--lang CODE] URL PHOTO SCREENSHOT
       serve_page.py --live URL SCREENSHOT
       serve_page.py --sign-in TOKEN URL SCREENSHOT
       serve_page.py --history URL SCREENSHOT
"""
import json
import shutil
import sys
import tempfile
import time

try:
    from selenium import webdriver
    from selenium.common.exceptions import TimeoutException
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait
    have_selenium = True
except ImportError:
    have_selenium = False

# The answer may take a while: the suite also runs under an emulator.
ANSWER_SECONDS = 60

# How often the live page is looked at: often enough to see each reading of a slow stream.
LOOK_SECONDS = 0.25

# The frame's average colour, from its pixels drawn on a canvas (the stream is same-origin, so
# the canvas can be read); null while no frame has loaded.
FRAME_COLOUR = """
const frame = document.getElementById("frame");
if (!frame.complete || frame.naturalWidth === 0) return null;
const canvas = document.createElement("canvas");
canvas.width = frame.naturalWidth;
canvas.height = frame.naturalHeight;
const context = canvas.getContext("2d");
context.drawImage(frame, 0, 0);
const pixels = context.getImageData(0, 0, canvas.width, canvas.height).data;
const sums = [0, 0, 0];
for (let i = 0; i < pixels.length; i += 4) { sums[0] += pixels[i]; sums[1] += pixels[i + 1]; sums[2] += pixels[i + 2]; }
return sums.map(sum => Math.round(sum / (pixels.length / 4)));
"""


def missing():
    """What of the browser stack is not installed, as one line (empty when all is there)."""
    absent = [name for name, there in [("python3-selenium", have_selenium),
                                       ("chromium", shutil.which("chromium")),
                                       ("chromium-driver", shutil.which("chromedriver"))] if not there]
    return ", ".join(absent)


def browser(profile, phone=False, language="en"):
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium")
    for flag in ["--headless=new", "--no-sandbox", "--disable-gpu", "--user-data-dir=" + profile,
                 "--window-size=800,1400", "--no-first-run", "--disable-extensions", "--lang=" + language]:
        options.add_argument(flag)
    options.add_experimental_option("prefs", {"intl.accept_languages": language})
    if phone:
        options.add_experimental_option("mobileEmulation", {"deviceMetrics": {"width": 390, "height": 844, "pixelRatio": 2}})
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service(shutil.which("chromedriver")), options=options)


def answered(driver):
    """The result is shown, or a problem is (the status line then says it in plain words)."""
    return driver.find_element(By.ID, "result").is_displayed() or driver.find_element(By.ID, "problem").is_displayed()


def shown(driver, element_id):
    """What a person sees of the element: nothing while it is hidden."""
    return driver.find_element(By.ID, element_id).text


def content(driver, element_id):
    """The element's text whether or not it is shown (behind a closed "Details" too)."""
    return driver.execute_script("return document.getElementById(arguments[0]).textContent", element_id)


# How the page is laid out: its language and direction, whether anything is wider than the
# viewport, the direction the scores are laid out in, where the class list is (first, or behind
# Details), and every host the page loaded anything from.
LAYOUT = """
const root = document.documentElement;
const wide = [...document.querySelectorAll("body *")].filter(element => {
  const box = element.getBoundingClientRect();
  return box.width > 0 && (box.right > root.clientWidth + 1 || box.left < -1) && !element.classList.contains("offscreen");
}).map(element => element.tagName + (element.id ? "#" + element.id : ""));
return {
  lang: root.lang, dir: root.dir,
  viewport_width: root.clientWidth, page_width: root.scrollWidth, too_wide: wide,
  score_directions: [...document.querySelectorAll("#top .score")].map(score => getComputedStyle(score).direction),
  top_behind_details: document.getElementById("top").closest("details") !== null,
  hosts: [...new Set(performance.getEntriesByType("resource").concat(performance.getEntriesByType("navigation"))
                     .map(entry => new URL(entry.name).host))],
  meaning: document.getElementById("meaning").textContent,
  references: [...document.querySelectorAll("#references img")].filter(picture => picture.getBoundingClientRect().width > 0)
                .map(picture => picture.naturalWidth + "x" + picture.naturalHeight),
  reference_names: [...document.querySelectorAll("#references img")].filter(picture => picture.getBoundingClientRect().width > 0)
                     .map(picture => picture.alt),
  codes: document.getElementById("codes").textContent,
  verdict_words: document.getElementById("verdict-words").textContent,
  problem: document.getElementById("problem").hidden ? "" : document.getElementById("problem-text").textContent,
  photo_controls: [...document.querySelectorAll("input[type=file], label.button")].filter(element => {
    const box = element.getBoundingClientRect();
    return box.width > 2 && box.height > 2;
  }).length,
  // Whether the picked photo's preview takes room on the page (none for a file that is no image).
  preview_shown: !!document.getElementById("preview") && document.getElementById("preview").getBoundingClientRect().height > 0,
  // CSS pixels between each score and the class name beside it, in either direction of writing.
  score_gaps: [...document.querySelectorAll("#top li")].map(item => {
    const score = item.querySelector(".score").getBoundingClientRect();
    const range = document.createRange();
    range.selectNodeContents(item.querySelector(".score + span"));
    const name = [...range.getClientRects()].find(rect => rect.width > 0 && Math.abs(rect.top - score.top) < score.height) || score;
    return Math.round(Math.max(name.left - score.right, score.left - name.right));
  })
};
"""


def console(driver):
    return [{"level": entry["level"], "source": entry.get("source", ""), "message": entry["message"]}
            for entry in driver.get_log("browser")]


def appended_if_new(seen, value):
    """`value` added to the values `seen` in turn, unless it is empty or the same as the last."""
    if value and (not seen or seen[-1] != value):
        seen.append(value)


def live(url, screenshot):
    """Watches the live page until the heading and the frame's colour have each changed (or
    ANSWER_SECONDS pass), and reports every heading and colour it saw, in turn."""
    with tempfile.TemporaryDirectory(prefix="serve-page-chromium-") as profile:
        driver = browser(profile)
        try:
            driver.get(url)
            verdicts, colours = [], []
            deadline = time.monotonic() + ANSWER_SECONDS
            while (len(verdicts) < 2 or len(colours) < 2) and time.monotonic() < deadline:
                appended_if_new(verdicts, shown(driver, "verdict"))
                appended_if_new(colours, driver.execute_script(FRAME_COLOUR))
                time.sleep(LOOK_SECONDS)
            report = {
                "timed_out": len(verdicts) < 2 or len(colours) < 2,
                "verdicts": verdicts,
                "frame_colours": colours,
                "frame_width": driver.execute_script('return document.getElementById("frame").naturalWidth'),
                "top": driver.execute_script('return [...document.querySelectorAll("#top li")].map(item => item.textContent)'),
                "timing": content(driver, "timing"),
                "status": shown(driver, "status"),
                "console": console(driver),
                "screenshot_saved": driver.save_screenshot(screenshot),
            }
        finally:
            driver.quit()
    print(json.dumps(report))


# What the style sheet sets: the body's type size, the heading's colour, and no box for the
# hidden user name.
PAGE_STYLE = """
return [getComputedStyle(document.body).fontSize, getComputedStyle(document.querySelector("h1")).color,
        getComputedStyle(document.querySelector("input[name=user]")).display];
"""


def sign_in(token, url, screenshot):
    """Opens the sign-in page, reports whether its style applied (and keeps a screenshot of it),
    then signs in with `token` and reports whether the photo page came."""
    with tempfile.TemporaryDirectory(prefix="serve-page-chromium-") as profile:
        driver = browser(profile)
        try:
            driver.get(url)
            style = driver.execute_script(PAGE_STYLE)
            saved = driver.save_screenshot(screenshot)
            driver.find_element(By.ID, "token").send_keys(token)
            driver.find_element(By.CSS_SELECTOR, "form button").click()
            try:
                WebDriverWait(driver, ANSWER_SECONDS).until(lambda page: page.find_elements(By.ID, "photo"))
                timed_out = False
            except TimeoutException:
                timed_out = True
            report = {
                "timed_out": timed_out,
                "sign_in_style": style,
                "title": driver.title,
                "console": console(driver),
                "screenshot_saved": saved,
            }
        finally:
            driver.quit()
    print(json.dumps(report))


# The history page as a phone shows it: each event's text and whether its picture loaded, the
# day's strip's frames loaded, the
# smallest computed font size in the readings table, and how many tables there are.
HISTORY_STATE = """
const events = [...document.querySelectorAll("#timeline li")];
const cells = [...document.querySelectorAll("#readings th, #readings td")];
return {
    "events": events.map(item => item.innerText),
    "strip_loaded": [...document.querySelectorAll(".strip img")].map(image => image.complete && image.naturalWidth > 0),
    "pictures_loaded": events.map(item => { const image = item.querySelector("img"); return !!image && image.complete && image.naturalWidth > 0; }),
    "smallest_table_text_px": Math.min(...cells.map(cell => parseFloat(getComputedStyle(cell).fontSize))),
    "tables": document.querySelectorAll("table").length,
    "table_rows": document.querySelectorAll("#readings tbody tr").length,
};
"""


def history(url, screenshot):
    with tempfile.TemporaryDirectory(prefix="serve-page-chromium-") as profile:
        driver = browser(profile, phone=True)
        try:
            driver.get(url)
            WebDriverWait(driver, ANSWER_SECONDS).until(
                lambda page: page.execute_script('return [...document.images].every(image => image.complete)'))
            report = driver.execute_script(HISTORY_STATE)
            report["viewport_width"] = driver.execute_script("return window.innerWidth")
            report["console"] = console(driver)
            driver.execute_script('document.getElementById("readings").scrollIntoView()')
            report["screenshot_saved"] = driver.save_screenshot(screenshot)
        finally:
            driver.quit()
    print(json.dumps(report))


def main(url, photo, screenshot, phone=False, language="en"):
    with tempfile.TemporaryDirectory(prefix="serve-page-chromium-") as profile:
        driver = browser(profile, phone, language)
        try:
            driver.get(url)
            driver.find_element(By.ID, "photo").send_keys(photo)
            try:
                WebDriverWait(driver, ANSWER_SECONDS).until(answered)
                # The reference pictures a diagnosis shows load after its answer.
                WebDriverWait(driver, ANSWER_SECONDS).until(lambda driver: driver.execute_script(
                    'return [...document.querySelectorAll("#references img")].every(picture => picture.complete)'))
                timed_out = False
            except TimeoutException:
                timed_out = True
            report = {
                "timed_out": timed_out,
                "result_shown": driver.find_element(By.ID, "result").is_displayed(),
                "verdict": shown(driver, "verdict"),
                "top": driver.execute_script('return [...document.querySelectorAll("#top li")].map(item => item.textContent)'),
                "timing": content(driver, "timing"),
                "status": shown(driver, "status"),
                "layout": driver.execute_script(LAYOUT),
                "console": console(driver),
                "screenshot_saved": driver.save_screenshot(screenshot),
            }
        finally:
            driver.quit()
    print(json.dumps(report))


if __name__ == "__main__":
    if missing():
        print(f"serve_page.py: not installed: {missing()}; scripts/setup.sh browser installs them", file=sys.stderr)
        sys.exit(3)
    if sys.argv[1] == "--live":
        live(*sys.argv[2:])
    elif sys.argv[1] == "--sign-in":
        sign_in(*sys.argv[2:])
    elif sys.argv[1] == "--history":
        history(*sys.argv[2:])
    else:
        arguments = sys.argv[1:]
        phone = arguments[0] == "--phone"
        if phone:
            arguments = arguments[1:]
        language = "en"
        if arguments[0] == "--lang":
            language, arguments = arguments[1], arguments[2:]
        main(*arguments, phone=phone, language=language)
