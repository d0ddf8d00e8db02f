"""Reads the photo page of `plantleaf serve` (or, without --photo, whatever page URL opens: the
sign-in page of a server with a token) in headless Chromium at a phone's size (390 x 844 CSS
pixels) as a grower would, in a language (--lang, as Accept-Language): with --photo it picks that
photo with the file input and waits for the answer and the reference pictures beside it. Prints
what the page shows as one JSON object on stdout: history_page.py's checks over all the page's
text (what is wider than the screen, words broken across lines, Latin words outside names), the
heading and its verdict, the advice, the reference pictures' sizes and credit, and the console.

It keeps two screenshots: SCREENSHOT, the screen as the phone shows it once the answer is there
(the answer scrolled into sight); SHAREABLE, the same page without any photo in it, for the
repository: with --photo, the answer from its heading down to the reference pictures (the photo
picked and the sample leaves are left out), else the whole screen.

usage: photo_page.py [--lang CODE] [--photo PHOTO] URL SCREENSHOT SHAREABLE
"""
import base64
import json
import sys
import tempfile

from history_page import STATE
from serve_page import ANSWER_SECONDS, answered, browser, console, missing

try:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait
except ImportError:
    pass  # missing() says so before anything needs them

# Every word a grower can read on these pages must stay whole.
EVERY_WORD = "body"

LOADED = 'return document.readyState === "complete"'

# The reference pictures beside a diagnosis load after its answer.
REFERENCES_LOADED = 'return [...document.querySelectorAll("#references img")].every(picture => picture.complete)'

ANSWER = """
const heading = document.getElementById("verdict");
const references = document.getElementById("references");
const shown = element => element !== null && element.getClientRects().length > 0;
return {
  heading: heading.textContent, verdict: heading.className,
  meaning: document.getElementById("meaning").textContent,
  problem: document.getElementById("problem").hidden ? "" : document.getElementById("problem-text").textContent,
  references: [...references.querySelectorAll("img")].filter(shown).map(picture => picture.naturalWidth + "x" + picture.naturalHeight),
  reference_names: [...references.querySelectorAll("img")].filter(shown).map(picture => picture.alt),
  reference_credit: shown(references) ? references.querySelector(".hint").innerText : "",
};
"""

# The part of the page without photos, in CSS pixels from the top of the page: the answer from
# its heading to the reference pictures (or to its end).
ANSWER_WITHOUT_PHOTOS = """
const result = document.getElementById("result").getBoundingClientRect();
const references = document.getElementById("references");
const end = references.hidden ? result.bottom : references.querySelector("img").getBoundingClientRect().top - 4;
return {x: 0, y: result.top + window.scrollY - 8, width: document.documentElement.clientWidth, height: end - result.top + 8, scale: 1};
"""


def save_part(driver, clip, path):
    """A PNG of the part `clip` of the page (beyond the screen too), as Chromium draws it."""
    shot = driver.execute_cdp_cmd("Page.captureScreenshot", {"format": "png", "clip": clip, "captureBeyondViewport": True})
    with open(path, "wb") as file:
        file.write(base64.b64decode(shot["data"]))
    return True


def read(url, screenshot, shareable, language, photo):
    with tempfile.TemporaryDirectory(prefix="photo-page-chromium-") as profile:
        driver = browser(profile, phone=True, language=language)
        try:
            driver.get(url)
            WebDriverWait(driver, ANSWER_SECONDS).until(lambda page: page.execute_script(LOADED))
            if photo:
                driver.find_element(By.ID, "photo").send_keys(photo)
                WebDriverWait(driver, ANSWER_SECONDS).until(answered)
                WebDriverWait(driver, ANSWER_SECONDS).until(lambda page: page.execute_script(REFERENCES_LOADED))
            report = driver.execute_script(STATE, EVERY_WORD)
            if photo:
                report.update(driver.execute_script(ANSWER))
            report["console"] = console(driver)
            if photo:
                clip = driver.execute_script(ANSWER_WITHOUT_PHOTOS)
                driver.execute_script('document.getElementById("result").scrollIntoView()')
            report["screenshot_saved"] = driver.save_screenshot(screenshot)
            report["shareable_saved"] = save_part(driver, clip, shareable) if photo else driver.save_screenshot(shareable)
        finally:
            driver.quit()
    print(json.dumps(report, ensure_ascii=False))


if __name__ == "__main__":
    if missing():
        print(f"photo_page.py: not installed: {missing()}; scripts/setup.sh browser installs them", file=sys.stderr)
        sys.exit(3)
    arguments = sys.argv[1:]
    language, photo = "en", None
    while arguments[0].startswith("--"):
        if arguments[0] == "--lang":
            language = arguments[1]
        elif arguments[0] == "--photo":
            photo = arguments[1]
        arguments = arguments[2:]
    read(*arguments, language=language, photo=photo)
