"""Reads the history page (or, given /live, the live page) of `plantleaf serve` in headless Chromium at a phone's size (390 x 844
CSS pixels) as a grower would, in a language (--lang, as Accept-Language) and a time zone (--tz,
the browser's own clock), and prints what it shows as one JSON object on stdout: the UTC offset
the page was drawn at (after clock.js has told the server the browser's), what is wider than the
screen, the day line's colours from left to right on the screen and its hours, the words broken
across lines, the Latin words outside names and isolated left-to-right text, and the console.

usage: history_page.py [--lang CODE] [--tz ZONE] URL SCREENSHOT
"""
import json
import os
import shutil
import sys
import tempfile

from serve_page import browser, console, missing

try:
    from selenium.webdriver.support.ui import WebDriverWait
except ImportError:
    pass

WAIT_SECONDS = 60

# The history's text that must not break: days, the legend, the counts, headings.
WORDS_THAT_MUST_NOT_BREAK = "#readings td, #readings th, .legend li, h2, #timeline li, .day-line-hours span"

# The page drawn at the browser's own offset (clock.js reloads it once when it was not); the live
# page once it shows a reading.
ON_THE_VIEWERS_CLOCK = """
if (document.getElementById("frame")) return !document.getElementById("result").hidden && document.getElementById("frame").complete;
const drawn = document.querySelector('meta[name="plantleaf-utc-offset"]');
return document.readyState === "complete" && drawn !== null && drawn.content === String(-new Date().getTimezoneOffset())
    && [...document.images].every(image => image.complete);
"""

# What a phone shows of a page: what is wider than the screen (but the file input kept off the
# screen on purpose), the words broken across lines, the Latin words outside names and isolated
# left-to-right text; on /history also its day line and counts. photo_page.py reads the other pages with it.
STATE = """
const root = document.documentElement;
const wide = [...document.querySelectorAll("body *")].filter(element => {
  const box = element.getBoundingClientRect();
  return box.width > 0 && (box.right > root.clientWidth + 1 || box.left < -1) && !element.classList.contains("offscreen");
}).map(element => {
  const box = element.getBoundingClientRect();
  return element.tagName + (element.className && element.className.baseVal === undefined ? "." + element.className : "")
    + " " + Math.round(box.left) + ".." + Math.round(box.right);
});
// Each word of the text that must not break (the elements arguments[0] selects), with the
// number of lines its letters were laid out on.
const broken = [];
for (const element of document.querySelectorAll(arguments[0])) {
  const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    for (const match of node.textContent.matchAll(/\\S+/g)) {
      const range = document.createRange();
      range.setStart(node, match.index);
      range.setEnd(node, match.index + match[0].length);
      const tops = new Set([...range.getClientRects()].map(rect => Math.round(rect.top)));
      if (tops.size > 1) broken.push(match[0]);
    }
  }
}
// Latin words a reader meets: not in a name or other text isolated (<bdi>, dir="ltr", or
// dir="auto", as the camera's name heads /live), nor in a link to another language (named in
// itself), nor the product's name.
const latin = new Set();
const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
for (let node = walker.nextNode(); node; node = walker.nextNode()) {
  const parent = node.parentElement;
  if (parent.closest("bdi, [dir=ltr], [dir=auto], script, style, title") || parent.closest("[lang]") !== root && parent.closest("[lang]")) continue;
  for (const word of node.textContent.match(/[A-Za-z]+/g) || []) if (word !== "PlantLeaf") latin.add(word);
}
const cells = [...document.querySelectorAll(".day-line-cells rect[class]")].map(rect => [rect.getBoundingClientRect().left, rect.getAttribute("fill")]);
cells.sort((a, b) => a[0] - b[0]);
const hours = [...document.querySelectorAll(".day-line-hours span")].map(span => [span.getBoundingClientRect().left, span.textContent]);
hours.sort((a, b) => a[0] - b[0]);
return {
  lang: root.lang, dir: root.dir, viewport_width: root.clientWidth, page_width: root.scrollWidth, too_wide: wide,
  drawn_offset: (document.querySelector('meta[name="plantleaf-utc-offset"]') || {}).content || null,
  browser_offset: String(-new Date().getTimezoneOffset()),
  day_line_fills: cells.map(cell => cell[1]),
  day_line_hours: hours.map(hour => hour[1]),
  broken_words: broken,
  latin_words: [...latin].sort(),
  counts: [...document.querySelectorAll("#readings td:last-child")].map(cell => cell.textContent),
};
"""


def history(url, screenshot, language, zone):
    if zone:
        os.environ["TZ"] = zone
    with tempfile.TemporaryDirectory(prefix="history-page-chromium-") as profile:
        driver = browser(profile, phone=True, language=language)
        try:
            driver.get(url)
            WebDriverWait(driver, WAIT_SECONDS).until(lambda page: page.execute_script(ON_THE_VIEWERS_CLOCK))
            report = driver.execute_script(STATE, WORDS_THAT_MUST_NOT_BREAK)
            report["console"] = console(driver)
            report["screenshot_saved"] = driver.save_screenshot(screenshot)
        finally:
            driver.quit()
    print(json.dumps(report))


if __name__ == "__main__":
    if missing():
        print(f"history_page.py: not installed: {missing()}; scripts/setup.sh browser installs them", file=sys.stderr)
        sys.exit(3)
    arguments = sys.argv[1:]
    language, zone = "en", None
    while arguments[0].startswith("--"):
        if arguments[0] == "--lang":
            language = arguments[1]
        elif arguments[0] == "--tz":
            zone = arguments[1]
        arguments = arguments[2:]
    history(*arguments, language=language, zone=zone)
