#!/usr/bin/env python3
"""The web app as the radio app people listen with, in headless Chromium (see browsing.py): a live
station plays on while three other pages open, and the phone's controls (Media Session) name the
station and its title; a programme is queued as its episodes in order, a chapter is jumped to, speed 1.5
plays 1.5 s of media a second, a sleep timer stops the player, a like puts the recording in Liked and a
hide takes it out of the lists and the queue; a recording paused in the phone-width browser is offered at
the same second in a laptop-width one. Listen now, search, the big player: axe-core and the other page
checks; the manifest and the service worker. Run by WebAppTests.BrowserTests."""

import os
import time

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

from browsing import (LAPTOP, PHONE, SHOTS, axe_checks, browser, check, open_page, page_checks, press, viewport,
                      wait_for)

AUDIO = "return document.getElementById('onair-audio')"


def key(element):
    """Presses a player control with the keyboard: the mini player and the big one are fixed on the screen, which
    selenium's pointer misplaces under phone emulation, and every control must work from the keyboard anyway."""
    element.send_keys(Keys.ENTER)


def state(driver):
    return driver.execute_script("return window.onair.state()")


def media_time(driver):
    return driver.execute_script(AUDIO + ".currentTime") or 0


def go(driver, label):
    """Follows a link of the navigation as a person does; the page is swapped in, not loaded."""
    press(driver, driver.find_element(By.XPATH, f"//header//nav//a[text()='{label}']"))
    wait_for(f"the {label} page is shown", lambda: heading(driver) == label, 10)


def heading(driver):
    """The page's h1, read in one step (a page swapped in meanwhile leaves no stale element behind)."""
    return driver.execute_script("const h = document.querySelector('main h1'); return h && h.textContent")


def live_station_plays_on(driver):
    open_page(driver, "/stations/demo")
    press(driver, driver.find_element(By.CSS_SELECTOR, "main button[data-play='station:demo']"))
    wait_for("the live station plays: currentTime passes 1 s", lambda: media_time(driver) > 1, 20)
    driver.execute_script("window.pauses = 0; window.stillThisDocument = true;"
                          "document.getElementById('onair-audio').addEventListener('pause', () => window.pauses++)")
    for label in ("Recordings", "Podcasts", "Listen now"):
        before = media_time(driver)
        go(driver, label)
        wait_for(f"on the {label} page the audio goes on ({before:.1f} s before)", lambda: media_time(driver) > before + 0.5, 10)
        paused = driver.execute_script("return [window.pauses, " + AUDIO[7:] + ".paused, window.stillThisDocument === true]")
        check(paused == [0, False, True], f"moving to {label} never paused the audio nor loaded a new document ({paused})")
    # Play again from Listen now's favourite (the stream is joined afresh): it plays on, the old stream's pause no matter.
    driver.execute_script("window.joined = false;" + AUDIO[7:] + ".addEventListener('emptied', () => window.joined = true, {once: true})")
    press(driver, driver.find_element(By.CSS_SELECTOR, "section[aria-labelledby=favourites] button[data-play='station:demo']"))
    wait_for("the station plays again from its card",
             lambda: driver.execute_script("return window.joined") and media_time(driver) > 1.5, 20)
    time.sleep(1)
    check(not state(driver)["paused"], "playing the station again leaves it playing")
    # Paused, a live station lets go of its stream; played again, it joins it live.
    key(driver.find_element(By.ID, "mini-toggle"))
    wait_for("paused, the live stream is let go", lambda: driver.execute_script(AUDIO + ".getAttribute('src')") is None, 5)
    key(driver.find_element(By.ID, "mini-toggle"))
    wait_for("played again, it joins the station live", lambda: media_time(driver) > 1, 20)
    metadata = wait_for("the Media Session names the station and its title",
                        lambda: driver.execute_script("const m = navigator.mediaSession.metadata;"
                                                      "return m && m.title === 'Morning tune' ? [m.title, m.artist, m.artwork.length] : null"), 20)
    check(metadata[1] == "Demo FM" and metadata[2] == 1, f"the lock screen shows Morning tune on Demo FM with artwork ({metadata})")
    key(driver.find_element(By.ID, "mini-open"))
    live = driver.execute_script("return ['big-seek', 'big-speed', 'big-back', 'big-forward']"
                                 ".map(id => document.getElementById(id).checkVisibility())")
    check(live == [False] * 4, f"no seek, speed or skip for a live station ({live})")
    focused = driver.execute_script("return document.activeElement.id")
    check(focused == "big-close", f"the big player takes the focus when it opens ({focused!r})")
    driver.switch_to.active_element.send_keys(Keys.ESCAPE)
    check(not driver.find_element(By.ID, "big-player").is_displayed(), "Escape closes the big player")


def programme_queue_speed_sleep_like_hide(driver):
    open_page(driver, "/recordings")
    press(driver, driver.find_element(By.CSS_SELECTOR, "main button[data-play='programme:morning']"))
    wait_for("the programme plays", lambda: media_time(driver) > 0.5, 15)
    queued = state(driver)
    check(queued["queue"] == ["recording:1", "recording:2"] and queued["ref"] == "recording:1",
          f"the programme is queued as its episodes, oldest first, the first playing ({queued})")

    key(driver.find_element(By.ID, "mini-open"))
    chapters = driver.find_elements(By.CSS_SELECTOR, "#big-chapters button")
    check([c.text for c in chapters] == ["0:00 Intro", "0:10 Middle", "0:20 End"], f"the big player lists its chapters ({[c.text for c in chapters]})")
    key(chapters[1])
    landed = wait_for("the chapter is jumped to", lambda: (lambda t: t if 9.9 <= t <= 12 else None)(media_time(driver)), 10)
    check(True, f"the chapter at 0:10 was jumped to ({landed:.2f} s)")
    key(driver.find_element(By.ID, "big-back"))
    back = media_time(driver)
    check(back < 2, f"back 15 s from {landed:.1f} s is the start ({back:.2f} s)")

    Select(driver.find_element(By.ID, "big-speed")).select_by_value("1.5")
    start_media, start_wall = media_time(driver), time.monotonic()
    time.sleep(4)
    rate = (media_time(driver) - start_media) / (time.monotonic() - start_wall)
    check(1.3 <= rate <= 1.7, f"at speed 1.5 the media time runs 1.5× the wall clock ({rate:.2f}×)")
    Select(driver.find_element(By.ID, "big-speed")).select_by_value("1")

    check(not state(driver)["paused"], "it plays before the sleep timer")
    driver.execute_script("window.onair.sleepAfter(3)")
    time.sleep(1)
    check(not state(driver)["paused"], "it plays on until the sleep timer ends")
    wait_for("the sleep timer stops the player", lambda: state(driver)["paused"], 6)
    check(True, "the sleep timer stopped the player")
    driver.save_screenshot(os.path.join(SHOTS, "player-phone.png"))
    axe_checks(driver, "big player")
    driver.save_screenshot(os.path.join(SHOTS, "player-laptop.png"))

    key(driver.find_element(By.ID, "big-like"))
    wait_for("Like is pressed", lambda: driver.find_element(By.ID, "big-like").get_attribute("aria-pressed") == "true", 5)
    key(driver.find_element(By.ID, "big-close"))
    open_page(driver, "/playlists/liked")
    liked = [e.get_attribute("href") for e in driver.find_elements(By.CSS_SELECTOR, "main a.title")]
    check(sorted("/" + href.split("/", 3)[3] for href in liked) == ["/recordings/1", "/stations/demo"],
          f"the liked recording is in Liked, beside the liked station ({liked})")
    page_checks(driver, "liked")
    viewport(driver, PHONE)

    key(driver.find_element(By.ID, "mini-open"))
    key(driver.find_element(By.ID, "big-hide"))
    wait_for("the hidden recording leaves the queue", lambda: state(driver)["queue"] == ["recording:2"], 5)
    key(driver.find_element(By.ID, "big-close"))
    open_page(driver, "/recordings")
    listed = [e.get_attribute("href") for e in driver.find_elements(By.CSS_SELECTOR, "main .cards a.title")]
    check(listed == [driver.current_url.split("/recordings")[0] + "/recordings/2"], f"the hidden recording is gone from the list ({listed})")
    queue = driver.execute_script("return fetch('/player/queue').then(r => r.json()).then(q => q.items.map(i => i.ref))")
    check(queue == ["recording:2"], f"and from the queue the daemon keeps ({queue})")


def resume_elsewhere(phone):
    open_page(phone, "/recordings/2")
    press(phone, phone.find_element(By.CSS_SELECTOR, "main button[data-play='recording:2']"))
    wait_for("the recording plays", lambda: media_time(phone) > 0.5, 10)
    phone.execute_script(AUDIO + ".currentTime = 7")
    wait_for("it plays past 7 s", lambda: media_time(phone) > 7.2, 10)
    phone.execute_script(AUDIO + ".pause()")
    left = media_time(phone)
    kept = wait_for("the daemon keeps where it was paused",
                    lambda: phone.execute_script("return fetch('/player/queue').then(r => r.json())"
                                                 ".then(q => Math.abs(q.seconds - arguments[0]) < 0.5 ? q.seconds : null)", left), 10)
    laptop = browser()
    try:
        viewport(laptop, LAPTOP)
        open_page(laptop, "/")
        wait_for("the laptop's mini player offers the recording", lambda: laptop.find_element(By.ID, "mini-player").is_displayed(), 10)
        offered = state(laptop)
        shown = laptop.find_element(By.ID, "mini-subtitle").text
        check(offered["ref"] == "recording:2" and abs(offered["seconds"] - left) < 0.5 and shown == f"Left at 0:0{int(left)}",
              f"the laptop offers the same item at the same second ({offered}, {shown!r}; left at {left:.2f} s, kept {kept:.2f} s)")
        key(laptop.find_element(By.ID, "mini-toggle"))
        wait_for("it resumes there", lambda: media_time(laptop) > left + 0.5, 10)
        check(media_time(laptop) < left + 5, f"and not from the top ({media_time(laptop):.2f} s)")
        laptop.execute_script(AUDIO + ".pause()")
        page_checks(laptop, "listen-now")
    finally:
        laptop.quit()


def installable(driver):
    manifest = driver.execute_script("return fetch('/manifest.webmanifest').then(r => r.json())")
    sizes = sorted(icon["sizes"] for icon in manifest["icons"])
    check(manifest["start_url"] == "/" and manifest["display"] == "standalone" and "192x192" in sizes and "512x512" in sizes,
          f"the manifest starts at / standalone with 192 and 512 px icons ({sizes})")
    icons = driver.execute_script("return Promise.all(arguments[0].map(i => fetch(i.src).then(r => r.ok && r.headers.get('Content-Type'))))",
                                  manifest["icons"])
    check(all(icons), f"every icon is served ({icons})")
    worker = wait_for("the service worker is active for the whole app",
                      lambda: driver.execute_script("return navigator.serviceWorker.getRegistration().then(r => r && r.active ? r.scope : null)"), 10)
    cached = driver.execute_script("return caches.keys().then(k => Promise.all(k.map(n => caches.open(n).then(c => c.keys()))))"
                                   ".then(l => l.flat().map(r => new URL(r.url).pathname).sort())")
    check(worker.endswith("/") and cached == ["/assets/app.css", "/assets/app.js", "/assets/icon.svg", "/assets/offline.html"],
          f"it keeps the page shell only, never audio or data ({worker}, {cached})")


def main():
    os.makedirs(SHOTS, exist_ok=True)
    driver = browser()
    try:
        viewport(driver, PHONE)
        open_page(driver, "/")
        shelves = [e.text for e in driver.find_elements(By.CSS_SELECTOR, "main h2")]
        check(shelves[:2] == ["Continue listening", "Favourite stations"] and "Recently recorded" in shelves, f"Listen now's shelves ({shelves})")
        favourite = driver.find_element(By.CSS_SELECTOR, "section[aria-labelledby=favourites] .title").text
        check(favourite == "Demo FM", f"the liked station is a favourite ({favourite!r})")
        page_checks(driver, "listen-now")
        viewport(driver, PHONE)

        live_station_plays_on(driver)
        programme_queue_speed_sleep_like_hide(driver)

        field = driver.find_element(By.ID, "find")
        field.send_keys("morning", Keys.ENTER)
        wait_for("the search page opens", lambda: heading(driver) == "Search: morning", 10)
        found = [e.text for e in driver.find_elements(By.CSS_SELECTOR, "main h2")]
        check(found == ["Programmes", "Recordings"], f"one search box finds the programme and its recordings ({found})")
        page_checks(driver, "search")
        viewport(driver, PHONE)

        installable(driver)
        # The pages around the app: the login form, and what the service worker shows when the box is away.
        for path, name in (("/login", "login"), ("/assets/offline.html", "offline")):
            open_page(driver, path)
            page_checks(driver, name)
        viewport(driver, PHONE)
        resume_elsewhere(driver)
    finally:
        driver.quit()
    print("player passed", flush=True)


if __name__ == "__main__":
    main()
