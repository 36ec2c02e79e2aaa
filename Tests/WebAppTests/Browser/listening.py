#!/usr/bin/env python3
"""The guide, podcasts and playlists in headless Chromium (see browsing.py): see what the guide lists
today, follow a local podcast feed (ONAIR_FEED_URL) with the keyboard, play its episode in the browser
and see its currentTime advance, like it, create a playlist with no name ("New playlist"), add the
episode to it, hide it and see it leave the playlist. Run by WebAppTests.BrowserTests; every page is
checked at 375 px and kept as screenshots at phone and laptop width."""

import os
import urllib.parse

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from browsing import press, LAPTOP, SHOTS, browser, check, notice, open_page, page_checks, viewport, wait_for

FEED = os.environ["ONAIR_FEED_URL"]
FEED_ORIGIN = "{0.scheme}://{0.netloc}".format(urllib.parse.urlsplit(FEED))


def main():
    os.makedirs(SHOTS, exist_ok=True)
    driver = browser()
    try:
        viewport(driver, LAPTOP)
        # The guide: today's broadcasts of the station, the one on air marked, each recordable.
        open_page(driver, "/guide")
        titles = [e.text for e in driver.find_elements(By.CSS_SELECTOR, ".guide .title")]
        check("Tone Magazine" in titles, f"the guide lists today's programme ({titles})")
        on_air = [e.text for e in driver.find_elements(By.CSS_SELECTOR, ".guide .on-air .title")]
        check(on_air == ["Tone Magazine"], f"the broadcast on air now is marked ({on_air})")
        check(len(driver.find_elements(By.XPATH, "//button[text()='Record this title']")) >= 1, "a broadcast can be recorded by its title")
        page_checks(driver, "guide")

        # Follow the feed with the keyboard only: type its address, Enter.
        open_page(driver, "/podcasts")
        field = driver.find_element(By.ID, "feed")
        field.send_keys(FEED)
        field.send_keys(Keys.ENTER)
        notice_text = notice(driver, 20)
        check(notice_text.startswith("Following Tone Talk"), f"the podcast is followed ({notice_text})")
        page_checks(driver, "podcast", allowed_origins=[FEED_ORIGIN])
        open_page(driver, "/podcasts")
        page_checks(driver, "podcasts")

        # Its episode plays in the browser, from the enclosure, with its page's Play button.
        open_page(driver, "/podcasts/1")
        press(driver, driver.find_element(By.LINK_TEXT, "One tone"))
        wait_for("the episode's page opens", lambda: driver.find_elements(By.ID, "player"), 10)
        press(driver, driver.find_element(By.CSS_SELECTOR, "main button[data-play='episode:1']"))
        wait_for("the episode plays: the player's currentTime advances past 1 s",
                 lambda: (driver.execute_script("return document.getElementById('onair-audio').currentTime") or 0) > 1, 20)
        check(True, "the podcast episode plays in the browser")
        driver.execute_script("document.getElementById('onair-audio').pause()")

        def left_at():
            open_page(driver, "/episodes/1")
            shown = driver.find_elements(By.ID, "progress")
            return shown[0].text if shown and shown[0].text.startswith("Left at 0:0") else None
        left = wait_for("where the player was paused is kept", left_at, 10)
        offered = driver.execute_script("return window.onair.state()")
        check(offered["ref"] == "episode:1" and offered["seconds"] > 1 and driver.find_element(By.ID, "mini-player").is_displayed(),
              f"the player offers to resume the episode there ({left!r}, {offered})")
        press(driver, driver.find_element(By.XPATH, "//button[text()='Like']"))
        notice_text = notice(driver)
        check(notice_text == "Liked One tone.", f"the episode is liked ({notice_text})")
        check(driver.find_element(By.XPATH, "//button[@value='unlike']").get_attribute("aria-pressed") == "true",
              "its Like button shows it pressed")
        page_checks(driver, "episode", allowed_origins=[FEED_ORIGIN])

        # A playlist created with no name is "New playlist"; the episode is added from its page.
        open_page(driver, "/playlists")
        liked = driver.find_element(By.ID, "playlists").text
        check("Liked" in liked and "1 item" in liked, f"Liked holds the episode ({liked!r})")
        driver.find_element(By.ID, "name").send_keys(Keys.ENTER)
        notice_text = notice(driver)
        check(driver.find_element(By.TAG_NAME, "h1").text == "New playlist", f"the playlist is called New playlist ({notice_text})")
        playlist = driver.current_url.split("?")[0]
        open_page(driver, "/playlists")
        page_checks(driver, "playlists")
        open_page(driver, "/episodes/1")
        press(driver, driver.find_element(By.XPATH, "//form[contains(@class, 'add-to-playlist')]//button"))
        notice_text = notice(driver)
        check(notice_text == "Added One tone to New playlist.", f"the episode is added ({notice_text})")
        driver.get(playlist)
        items = [e.text for e in driver.find_elements(By.CSS_SELECTOR, "#items .title")]
        check(items == ["One tone"], f"the playlist lists the episode ({items})")
        page_checks(driver, "playlist")

        # Hidden, it leaves the playlist.
        press(driver, driver.find_element(By.XPATH, "//button[text()='Hide']"))
        notice_text = notice(driver)
        check("it left every playlist" in notice_text, f"the episode is hidden ({notice_text})")
        items = [e.text for e in driver.find_elements(By.CSS_SELECTOR, "#items .title")]
        check(items == [], f"the hidden episode is gone from the playlist ({items})")
    finally:
        driver.quit()
    print("listening passed", flush=True)


if __name__ == "__main__":
    main()
