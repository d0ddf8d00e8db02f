"""Corrects an answer on the page of `plantleaf serve` in headless Chromium, as a grower would:
picks a photo, reads the answer, opens "Wrong? Tell PlantLeaf what this is" under it, types a
new name and sends it, then picks the same photo again and reads the new answer. Last, it opens
the page again and reads its "Which plants?" section. Prints what the page showed (and what the
browser logged) as one JSON object on stdout; the browser is serve_page.py's.

usage: correct_page.py [--lang CODE] URL PHOTO NAME SCREENSHOT
"""
import json
import sys
import tempfile

import serve_page

# The status under the form once the server has answered (the class says how it went).
ANSWERED_STATUS = """
const status = document.querySelector("#result .correct-status");
return status.classList.contains("diagnosis") || status.classList.contains("uncertain") ? status.textContent : null;
"""


def pick(driver, photo):
    """Picks `photo` with the file input (again, if it was picked before) and waits for the heading."""
    driver.execute_script('document.getElementById("verdict").textContent = ""; document.getElementById("photo").value = "";')
    driver.find_element(serve_page.By.ID, "photo").send_keys(photo)
    serve_page.WebDriverWait(driver, serve_page.ANSWER_SECONDS).until(
        lambda driver: serve_page.shown(driver, "verdict") or driver.find_element(serve_page.By.ID, "problem").is_displayed())
    return serve_page.shown(driver, "verdict")


def main(url, photo, name, screenshot, language="en"):
    with tempfile.TemporaryDirectory(prefix="correct-page-chromium-") as profile:
        driver = serve_page.browser(profile, True, language)
        report = {"timed_out": True}
        try:
            driver.get(url)
            before = pick(driver, photo)
            driver.find_element(serve_page.By.CSS_SELECTOR, "#result details.correct summary").click()
            driver.find_element(serve_page.By.CSS_SELECTOR, "#result form.correct-form input[name=new]").send_keys(name)
            driver.find_element(serve_page.By.CSS_SELECTOR, "#result form.correct-form button").click()
            status = serve_page.WebDriverWait(driver, serve_page.ANSWER_SECONDS).until(lambda driver: driver.execute_script(ANSWERED_STATUS))
            after = pick(driver, photo)
            report = {
                "timed_out": False,
                "before": before,
                "status": status,
                "after": after,
                "meaning": serve_page.shown(driver, "meaning"),
                "screenshot_saved": driver.save_screenshot(screenshot),
            }
            driver.get(url)
            report["known"] = serve_page.content(driver, "known")
            report["console"] = serve_page.console(driver)
        except serve_page.TimeoutException:
            report["status"] = driver.execute_script('return document.querySelector("#result .correct-status").textContent')
        finally:
            driver.quit()
    print(json.dumps(report, ensure_ascii=False))


if __name__ == "__main__":
    if serve_page.missing():
        print(f"correct_page.py: not installed: {serve_page.missing()}; scripts/setup.sh browser installs them", file=sys.stderr)
        sys.exit(3)
    arguments = sys.argv[1:]
    language = "en"
    if arguments[0] == "--lang":
        language, arguments = arguments[1], arguments[2:]
    main(*arguments, language=language)
