"""What every browser test of onair's web app shares: headless Chromium (Debian's chromium and
chromedriver, driven by selenium), the app's address from ONAIR_WEB_URL, checks printed one per line
(exit 1 on the first failure, naming it), and each page's checks at 375 px with screenshots at phone
and laptop width in ONAIR_SCREENSHOTS, and quality_checks: axe-core (from PyPI's axe-selenium-python)
in both themes, the page's weight, its requests' origins and its keyboard access."""

import importlib.util
import os
import sys
import time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

BASE = os.environ["ONAIR_WEB_URL"]
SHOTS = os.environ["ONAIR_SCREENSHOTS"]
WEIGHT_LIMIT = 100_000  # bytes of HTML, CSS and script, uncompressed
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


def press(driver, element):
    """Clicks the element as a person would: scrolled to the middle of the screen first, out from under the
    mini player fixed at the bottom."""
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
    element.click()


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


def page_checks(driver, name, allowed_origins=()):
    """At phone width: no horizontal scroll, every field labelled (a label, or aria-label where there is
    no room for one: the player's position slider); a screenshot at both widths; then
    quality_checks (allowed_origins: where its audio may also come from, a podcast's enclosure)."""
    viewport(driver, PHONE)
    driver.refresh()
    # Against the screen's width, not innerWidth: a phone zooms out to show a page wider than itself, and
    # innerWidth grows with it.
    overflow = driver.execute_script("return document.documentElement.scrollWidth - arguments[0]", PHONE["width"])
    check(overflow <= 0, f"{name}: no horizontal scroll at 375 px (overflow {overflow} px)")
    unlabelled = driver.execute_script(
        "return [...document.querySelectorAll('input:not([type=hidden]), select')]"
        ".filter(e => e.labels.length === 0 && !e.getAttribute('aria-label')).map(e => e.name || e.id)")
    check(unlabelled == [], f"{name}: every field has a label ({unlabelled})")
    check(driver.execute_script("return window.owned") is None, f"{name}: no injected script ran")
    driver.save_screenshot(os.path.join(SHOTS, f"{name}-phone.png"))
    viewport(driver, LAPTOP)
    driver.refresh()
    driver.save_screenshot(os.path.join(SHOTS, f"{name}-laptop.png"))
    quality_checks(driver, name, allowed_origins)


def axe_violations(driver):
    """axe-core's serious and critical violations on the page, injected from the installed
    axe_selenium_python package (not a copy in the project)."""
    if not driver.execute_script("return !!window.axe"):
        package = importlib.util.find_spec("axe_selenium_python")
        if package is None:
            check(False, "axe-selenium-python is installed (run scripts/setup)")
        path = os.path.join(package.submodule_search_locations[0], "node_modules", "axe-core", "axe.min.js")
        with open(path, encoding="utf-8") as script:
            driver.execute_script(script.read())
    return driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "axe.run(document, {resultTypes: ['violations']}).then(r => done(r.violations"
        ".filter(v => v.impact === 'serious' || v.impact === 'critical')"
        ".map(v => ({id: v.id, impact: v.impact, help: v.help,"
        " nodes: v.nodes.map(n => ({target: n.target.join(' '), html: n.html, why: n.failureSummary}))}))),"
        " e => done([{id: 'axe-error', impact: 'critical', help: String(e), nodes: []}]))")


def color_scheme(driver, scheme):
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": scheme}]})


def axe_checks(driver, name):
    """No serious or critical axe-core violation at phone width in the dark theme, then in the light one,
    then at laptop width (left there, light)."""
    for metrics, width, scheme in ((PHONE, "375 px, dark", "dark"), (PHONE, "375 px", "light"), (LAPTOP, "1280 px", "light")):
        viewport(driver, metrics)
        color_scheme(driver, scheme)
        found = axe_violations(driver)
        summary = "; ".join(f"{v['id']} ({v['impact']}: {', '.join(n['target'] for n in v['nodes'][:2])}"
                            f"{', …' if len(v['nodes']) > 2 else ''}; {' '.join((v['nodes'][0]['why'] or '').split()) if v['nodes'] else ''})"
                            for v in found)
        check(found == [], f"{name}: no serious or critical axe-core violation at {width}{' — ' + summary if found else ''}")


def weight_check(driver, name):
    """The document's HTML plus every stylesheet and script it loaded, uncompressed, under WEIGHT_LIMIT."""
    parts = driver.execute_script(
        "const seen = new Map();"
        "for (const e of performance.getEntriesByType('resource'))"
        "  if (['link', 'script', 'css'].includes(e.initiatorType)) seen.set(e.name, e.decodedBodySize);"
        "const missing = [...document.querySelectorAll('link[rel~=stylesheet][href], script[src]')]"
        "  .map(e => e.href || e.src).filter(u => !seen.has(u));"
        "return {html: performance.getEntriesByType('navigation')[0].decodedBodySize,"
        "        assets: [...seen.values()].reduce((a, b) => a + b, 0), count: seen.size, missing: missing}")
    check(parts["missing"] == [], f"{name}: every stylesheet and script has a resource timing entry ({parts['missing']})")
    total = parts["html"] + parts["assets"]
    check(total < WEIGHT_LIMIT, f"{name}: weighs {total / 1000:.1f} KB uncompressed (HTML {parts['html']} B, "
                                f"{parts['count']} stylesheets and scripts {parts['assets']} B; limit {WEIGHT_LIMIT / 1000:.0f} KB)")


def origin_check(driver, name, allowed_origins=()):
    """Every request (resource timing, the navigation) and every img, audio, source, link and script
    address is the daemon's; audio and source elements (and media fetches) may also use allowed_origins,
    a podcast episode's enclosure. data: addresses are no request."""
    foreign = driver.execute_script(
        "const [base, allowed] = arguments, origin = new URL(base).origin;"
        "const ok = (url, media) => url.startsWith('data:') || new URL(url, document.baseURI).origin === origin"
        "  || (media && allowed.includes(new URL(url, document.baseURI).origin));"
        "const requests = [...performance.getEntriesByType('navigation'), ...performance.getEntriesByType('resource')]"
        "  .filter(e => !ok(e.name, ['audio', 'video'].includes(e.initiatorType))).map(e => e.name);"
        "const addresses = [...document.querySelectorAll('img[src], audio[src], source[src], link[href], script[src]')]"
        "  .filter(e => !ok(e.getAttribute('src') ?? e.getAttribute('href'), ['AUDIO', 'SOURCE'].includes(e.tagName)))"
        "  .map(e => e.tagName.toLowerCase() + ' ' + (e.getAttribute('src') ?? e.getAttribute('href')));"
        "return requests.concat(addresses)",
        BASE, [origin.rstrip("/") for origin in allowed_origins])
    check(foreign == [], f"{name}: every request and address is the daemon's ({foreign[:5]})")


def keyboard_checks(driver, name):
    """Every visible link, button, field and [tabindex] takes focus, and no link, button or field has a
    negative tabindex (main's -1 is where focus goes after a page is swapped in, not a stop of Tab);
    Tab from the top of the page reaches main's first link (else its first control)."""
    refused = driver.execute_script(
        "const shown = e => e.checkVisibility ? e.checkVisibility({visibilityProperty: true}) : e.getClientRects().length > 0;"
        "const describe = e => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + ' ' + JSON.stringify((e.textContent || e.name || '').trim().slice(0, 30));"
        "const bad = [], controls = 'a[href], button, input, select, textarea';"
        "for (const e of document.querySelectorAll('a[href], button, input:not([type=hidden]), select, textarea, [tabindex]')) {"
        "  if (!shown(e) || e.disabled) continue;"
        "  if (e.tabIndex < 0 && e.matches(controls)) bad.push(describe(e) + ' tabindex ' + e.getAttribute('tabindex'));"
        "  e.focus(); if (document.activeElement !== e) bad.push(describe(e) + ' takes no focus');"
        "}"
        "document.activeElement.blur(); window.scrollTo(0, 0); return bad")
    check(refused == [], f"{name}: every visible link, button and field takes focus, none with a negative tabindex ({refused[:5]})")
    target = driver.execute_script(
        "const shown = e => e.checkVisibility ? e.checkVisibility({visibilityProperty: true}) : e.getClientRects().length > 0;"
        "const main = document.querySelector('main');"
        "const first = s => main && [...main.querySelectorAll(s)].find(e => shown(e) && !e.disabled && e.tabIndex >= 0);"
        "const link = first('a[href]');"
        "window.onairTabTarget = link || first('button, input:not([type=hidden]), select, textarea, [tabindex]');"
        "if (!window.onairTabTarget) return null;"
        "const start = document.createElement('span'); start.id = 'onair-tab-start'; start.tabIndex = -1;"
        "document.body.prepend(start); start.focus();"
        "const e = window.onairTabTarget;"
        "return (link ? 'first link, ' : 'first control (no link), ') + e.tagName.toLowerCase() + ' ' + JSON.stringify((e.textContent || e.name).trim().slice(0, 30))")
    if target is None:
        check(True, f"{name}: main has no link or control to Tab to")
        return
    presses = 0
    while presses < 100 and not driver.execute_script("return document.activeElement === window.onairTabTarget"):
        ActionChains(driver).send_keys(Keys.TAB).perform()
        presses += 1
    reached = driver.execute_script("return document.activeElement === window.onairTabTarget")
    driver.execute_script("document.getElementById('onair-tab-start').remove(); delete window.onairTabTarget")
    check(reached, f"{name}: Tab from the top reaches main's {target}, in {presses} presses")


def quality_checks(driver, name, allowed_origins=()):
    """On the page open: axe-core at phone and laptop width (the viewport is left at laptop width), the
    page's weight, its requests' origins (allowed_origins: also for audio, a podcast's enclosure) and its
    keyboard access."""
    axe_checks(driver, name)
    weight_check(driver, name)
    origin_check(driver, name, allowed_origins)
    keyboard_checks(driver, name)
