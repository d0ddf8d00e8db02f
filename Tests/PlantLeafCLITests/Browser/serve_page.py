"""Drives the page of `plantleaf serve` in headless Chromium, as a person with a phone would:
loads it, picks a photo with the file input, waits for the answer, and prints what the page
shows (and what the browser logged) as one JSON object on stdout.

usage: serve_page.py URL PHOTO SCREENSHOT
"""
import json
import shutil
import sys
import tempfile

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


def missing():
    """What of the browser stack is not installed, as one line (empty when all is there)."""
    absent = [name for name, there in [("python3-selenium", have_selenium),
                                       ("chromium", shutil.which("chromium")),
                                       ("chromium-driver", shutil.which("chromedriver"))] if not there]
    return ", ".join(absent)


def browser(profile):
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium")
    for flag in ["--headless=new", "--no-sandbox", "--disable-gpu", "--user-data-dir=" + profile,
                 "--window-size=800,1400", "--no-first-run", "--disable-extensions"]:
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service(shutil.which("chromedriver")), options=options)


def answered(driver):
    """The result is shown, or the status line says something other than that it is reading."""
    status = driver.find_element(By.ID, "status").text
    return driver.find_element(By.ID, "result").is_displayed() or status not in ("", "Reading the leaf…")


def shown(driver, element_id):
    """What a person sees of the element: nothing while it is hidden."""
    return driver.find_element(By.ID, element_id).text


def main(url, photo, screenshot):
    with tempfile.TemporaryDirectory(prefix="serve-page-chromium-") as profile:
        driver = browser(profile)
        try:
            driver.get(url)
            driver.find_element(By.ID, "photo").send_keys(photo)
            try:
                WebDriverWait(driver, ANSWER_SECONDS).until(answered)
                timed_out = False
            except TimeoutException:
                timed_out = True
            report = {
                "timed_out": timed_out,
                "result_shown": driver.find_element(By.ID, "result").is_displayed(),
                "verdict": shown(driver, "verdict"),
                "top": [item.text for item in driver.find_elements(By.CSS_SELECTOR, "#top li")],
                "timing": shown(driver, "timing"),
                "status": shown(driver, "status"),
                "console": [{"level": entry["level"], "source": entry.get("source", ""), "message": entry["message"]}
                            for entry in driver.get_log("browser")],
                "screenshot_saved": driver.save_screenshot(screenshot),
            }
        finally:
            driver.quit()
    print(json.dumps(report))


if __name__ == "__main__":
    if missing():
        print(f"serve_page.py: not installed: {missing()}; scripts/setup.sh browser installs them", file=sys.stderr)
        sys.exit(3)
    main(*sys.argv[1:])
