#!/usr/bin/env python3
"""What a person does with onair's web app, in headless Chromium (Debian's chromium and chromedriver,
driven by selenium): find a station, schedule a one-off recording a few seconds ahead, see it recorded,
play it, jump to a chapter, delete it, record a station by hand, listen to it live; every page readable at 375 px wide and
escaped. Run by WebAppTests.BrowserTests with the app's address in ONAIR_WEB_URL; screenshots of each
page at phone and laptop width go to ONAIR_SCREENSHOTS. Prints one line per check; exits 1 on the first
failure, naming it."""

import datetime
import os

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

from browsing import press, BASE, LAPTOP, SHOTS, browser, check, notice, open_page, page_checks, viewport, wait_for


def main():
    os.makedirs(SHOTS, exist_ok=True)
    driver = browser()
    try:
        viewport(driver, LAPTOP)
        # Find the station in the catalogue.
        open_page(driver, "/stations")
        search = driver.find_element(By.ID, "q")
        search.send_keys("demo")
        search.submit()
        WebDriverWait(driver, 10).until(lambda d: "q=demo" in d.current_url)
        names = [e.text for e in driver.find_elements(By.CSS_SELECTOR, "#catalogue .title")]
        check(names == ["Demo FM"], f"searching the catalogue for demo lists Demo FM ({names})")
        open_page(driver, "/stations")
        ActionChains(driver).send_keys(Keys.TAB).perform()
        focused = driver.execute_script("const e = document.activeElement; return [e.textContent, e.getBoundingClientRect().left]")
        check(focused[0] == "Skip to the content" and focused[1] >= 0, f"the first Tab shows the skip link ({focused})")
        ActionChains(driver).send_keys(Keys.TAB, Keys.TAB).perform()
        focused = driver.execute_script("return document.activeElement.textContent")
        check(focused == "Listen now", f"Tab goes on to the sections ({focused!r})")
        hostile = [e.text for e in driver.find_elements(By.CSS_SELECTOR, "#catalogue .title") if "script" in e.text]
        check(hostile == ["<script>window.owned=1</script> Radio"], f"a hostile station name shows as text ({hostile})")
        page_checks(driver, "stations")

        open_page(driver, "/stations/demo")
        check(driver.find_element(By.ID, "listen").get_attribute("data-ref") == "station:demo" and not driver.find_element(By.ID, "listen").is_displayed(),
              "with script, the station page's own audio element gives way to the player")
        live = wait_for("a title from the event stream shows as now playing",
                        lambda: driver.find_element(By.ID, "now-playing").text, 10)
        check(live == "<img src=x onerror=window.owned=1> Live", f"the live title is shown as text ({live!r})")
        check(driver.find_elements(By.CSS_SELECTOR, "#now-playing img") == [], "the live title made no element")
        page_checks(driver, "station")

        # Schedule a one-off recording a few seconds ahead (the station's clock is UTC).
        open_page(driver, "/schedule")
        start = datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0) + datetime.timedelta(seconds=8)
        driver.find_element(By.ID, "station").send_keys("demo")
        driver.execute_script("document.getElementById('on').value = arguments[0]", start.strftime("%Y-%m-%dT%H:%M:%S"))
        driver.find_element(By.ID, "duration").send_keys("12s")
        press(driver, driver.find_element(By.XPATH, "//button[text()='Add the rule']"))
        notice_text = notice(driver)
        check(notice_text.startswith("Added rule 1: demo"), f"the rule is added ({notice_text})")
        upcoming = driver.find_element(By.ID, "next").text
        check("demo" in upcoming and start.strftime("%H:%M") in upcoming, f"its episode is among the next ({upcoming!r})")
        page_checks(driver, "schedule")

        # Its recording appears once the episode is over.
        def recorded():
            open_page(driver, "/recordings")
            return driver.find_elements(By.CSS_SELECTOR, "main .cards a.title")
        links = wait_for("the scheduled episode's recording is listed", recorded, 60)
        check(len(links) == 1, f"one recording listed ({len(links)})")
        page_checks(driver, "recordings")
        links = driver.find_elements(By.CSS_SELECTOR, "main .cards a.title")
        press(driver, links[0])

        # Play it with the page's Play button (the one player of every page), then jump to the second title's chapter.
        WebDriverWait(driver, 10).until(lambda d: d.find_elements(By.ID, "player"))
        chapters = driver.find_elements(By.CSS_SELECTOR, "#chapters a[data-seek]")
        texts = [c.text for c in chapters]
        check(len(chapters) >= 2, f"the recording has its titles as chapters ({texts})")
        check(any("<script>window.owned=1</script> News" in t for t in texts), f"a hostile title is shown as text ({texts})")
        press(driver, driver.find_element(By.CSS_SELECTOR, "main button[data-play^='recording:']"))
        played = wait_for("the player plays: currentTime advances past 1 s",
                          lambda: (driver.execute_script("return document.getElementById('onair-audio').currentTime") or 0) > 1, 15)
        check(played, "the recording plays in the browser")
        target = chapters[-1]
        seconds = float(target.get_attribute("data-seek"))
        before = driver.execute_script("return document.getElementById('onair-audio').currentTime")
        check(before < seconds - 0.5, f"the player is before the last chapter ({before:.2f} s < {seconds} s)")
        press(driver, target)
        def at_chapter():
            now = driver.execute_script("return document.getElementById('onair-audio').currentTime")
            return now if seconds - 0.1 <= now <= seconds + 3 else None
        landed = wait_for(f"a chapter link seeks to {seconds} s", at_chapter, 10)
        check(True, f"the chapter link seeked to {landed:.2f} s (chapter at {seconds} s)")
        ranged = driver.execute_script(
            "return performance.getEntriesByType('resource').filter(e => e.name.includes('/api/v1/recordings/') && e.name.endsWith('/audio')).length")
        check(ranged >= 1, "the player fetched the audio file")
        page_checks(driver, "recording")

        # Delete it: the page asks first.
        open_page(driver, driver.current_url.split("?")[0].replace(BASE, ""))
        press(driver, driver.find_element(By.XPATH, "//button[text()='Delete the recording']"))
        WebDriverWait(driver, 5).until(lambda d: d.switch_to.alert).accept()
        notice_text = notice(driver)
        check(notice_text.startswith("Deleted"), f"the recording is deleted ({notice_text})")
        check(driver.find_elements(By.CSS_SELECTOR, "main .cards a.title") == [], "the recordings page no longer lists it")

        # Listen to the station live in the browser.
        open_page(driver, "/stations/demo")
        press(driver, driver.find_element(By.CSS_SELECTOR, "main button[data-play='station:demo']"))
        wait_for("listening in the browser: the live audio's currentTime advances past 1 s",
                 lambda: (driver.execute_script("return document.getElementById('onair-audio').currentTime") or 0) > 1, 20)
        check(True, "the station plays live in the browser")
        driver.execute_script("document.getElementById('onair-audio').pause()")

        # Record the station by hand, see the job, stop it.
        press(driver, driver.find_element(By.XPATH, "//button[text()='Record now']"))
        notice_text = notice(driver)
        check(notice_text.startswith("Recording (job 2)"), f"record now starts a job ({notice_text})")
        def recording_job():
            open_page(driver, "/status")
            job = [e.text for e in driver.find_elements(By.CSS_SELECTOR, "#status-jobs li") if "recording of demo" in e.text]
            return job[0] if job and "playing" in job[0] and " 0 bytes" not in job[0] else None
        job = wait_for("the status page lists the job, playing", recording_job, 20)
        check("Live" in job or "News" in job, f"the status page lists the job with the title on air ({job!r})")
        page_checks(driver, "status")
        open_page(driver, "/aired")
        check("Clips watched for" in driver.find_element(By.TAG_NAME, "body").text, "the aired page shows the clips watched for")
        page_checks(driver, "aired")
        open_page(driver, "/status")
        press(driver, driver.find_element(By.XPATH, "//li[contains(., 'recording of demo')]//button[starts-with(text(), 'Stop job')]"))
        notice_text = notice(driver, 30)
        check(notice_text.startswith("Stopped job"), f"the job is stopped ({notice_text})")
    finally:
        driver.quit()
    print("walkthrough passed", flush=True)


if __name__ == "__main__":
    main()
