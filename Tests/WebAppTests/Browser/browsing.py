"""What every browser test of onair's web app shares: headless Chromium (Debian's chromium and
chromedriver, driven by selenium), the app's address from ONAIR_WEB_URL, checks printed one per line
(exit 1 on the first failure, naming it), and each page's checks at 375 px with screenshots at phone
and laptop width in ONAIR_SCREENSHOTS."""

import os
import sys
import time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

BASE = os.environ["ONAIR_WEB_URL"]
SHOTS = os.environ["ONAIR_SCREENSHOTS"]
PHONE = {"width": 375, "height": 812, "deviceScaleFactor": 2, "mobile": True}
LAPTOP = {"width": 1280, "height": 900, "deviceScaleFactor": 1, "mobile": False}


def check(condition, what):
    if not condition:
        print(f"FAILED: {what}", flush=True)
        sys.exit(1)
    print(f"ok: {what}", flush=True)


def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--autoplay-policy=no-user-gesture-required", "--mute-audio"):
        options.add_argument(argument)
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def viewport(driver, metrics):
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", metrics)


def open_page(driver, path):
    driver.get(BASE + path)
    WebDriverWait(driver, 10).until(lambda d: d.execute_script("return document.readyState") == "complete")


def wait_for(what, predicate, timeout):
    deadline = time.time() + timeout
    while time.time() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.5)
    check(False, what)


def notice(driver, timeout=10):
    """The page's one-time notice after a form; the page's text when there is none."""
    def shown(d):
        found = d.find_elements(By.CSS_SELECTOR, ".notice, .error")
        return found[0] if found else None
    try:
        element = WebDriverWait(driver, timeout).until(shown)
    except Exception:
        check(False, f"a notice after the form; the page at {driver.current_url} says: {driver.find_element(By.TAG_NAME, 'body').text[:500]!r}")
    check("notice" in element.get_attribute("class"), f"the form succeeded: {element.text!r}")
    return element.text


def page_checks(driver, name):
    """At phone width: no horizontal scroll, every field labelled; a screenshot at both widths."""
    viewport(driver, PHONE)
    driver.refresh()
    overflow = driver.execute_script("return document.documentElement.scrollWidth - window.innerWidth")
    check(overflow <= 0, f"{name}: no horizontal scroll at 375 px (overflow {overflow} px)")
    unlabelled = driver.execute_script(
        "return [...document.querySelectorAll('input:not([type=hidden]), select')]"
        ".filter(e => e.labels.length === 0).map(e => e.name)")
    check(unlabelled == [], f"{name}: every field has a label ({unlabelled})")
    check(driver.execute_script("return window.owned") is None, f"{name}: no injected script ran")
    driver.save_screenshot(os.path.join(SHOTS, f"{name}-phone.png"))
    viewport(driver, LAPTOP)
    driver.refresh()
    driver.save_screenshot(os.path.join(SHOTS, f"{name}-laptop.png"))
