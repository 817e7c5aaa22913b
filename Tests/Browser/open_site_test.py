#!/usr/bin/env python3
"""Opening a new site in a real browser, as the README's quick start says.

In a temporary folder, runs the built `storysite init mysite`, then in headless Chromium (Debian's
chromium and chromium-driver, driven by selenium) checks what the README promises:
  1. under `storysite serve`, clicking the header's "About" link opens the About page;
  2. opened from disk (`storysite build`, then a file:// URL of Output/index.html), the same click
     opens the folder `about/`, which the browser lists as files instead of showing the page:
     the README says so and sends readers to `storysite serve`.
Prints `open-site: N passed, M failed` and exits non-zero on any failure. Every wait is bounded.

Usage: open_site_test.py [path/to/storysite]   (default: .build/debug/storysite)
"""
import shutil
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

from selenium.common.exceptions import TimeoutException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from live_reload_test import REPOSITORY, Server, browser

ABOUT_TEXT = "We build calm software for small shops."


def click_about(driver):
    """Clicks the header navigation's About link; returns the URL it leads to."""
    link = driver.find_element(By.XPATH, "//nav[@aria-label='Main']//a[normalize-space()='About']")
    target = link.get_attribute("href")
    link.click()
    WebDriverWait(driver, 10).until(lambda d: d.current_url.rstrip("/").endswith("about"), "the click did not navigate")
    return target


def main():
    executable = Path(sys.argv[1] if len(sys.argv) > 1 else REPOSITORY / ".build/debug/storysite").resolve()
    signal.alarm(180)  # the whole test is bounded, whatever hangs
    workspace = Path(tempfile.mkdtemp(prefix="storysite-open-"))
    site = workspace / "mysite"
    subprocess.run([str(executable), "init", "mysite"], cwd=workspace, check=True, capture_output=True)

    results = []

    def check(name, test):
        try:
            test()
            results.append(True)
            print(f"ok   {name}")
        except (AssertionError, TimeoutException) as error:
            results.append(False)
            print(f"FAIL {name}: {type(error).__name__}: {error}")

    server = Server(executable, site)
    driver = browser()
    try:
        def served_link_opens_page():
            driver.get(server.url)
            click_about(driver)
            WebDriverWait(driver, 10).until(
                lambda d: ABOUT_TEXT in d.find_element(By.TAG_NAME, "body").text, "the About page did not show")

        def file_link_lists_folder():
            index = site / "Output/index.html"
            assert index.exists(), "storysite serve did not build Output/"
            driver.get(index.as_uri())
            target = click_about(driver)
            assert target == (site / "Output/about").as_uri() + "/", f"the link leads to {target}"
            body = driver.find_element(By.TAG_NAME, "body").text
            assert ABOUT_TEXT not in body, "the About page showed from disk: the README's caveat is out of date"
            assert "index.html" in body, f"the browser did not list the folder: {body[:200]!r}"

        check("under storysite serve, clicking the About link in the header opens the About page", served_link_opens_page)
        check("from file://, the same click opens the folder about/ as a file listing, as the README says", file_link_lists_folder)
    finally:
        driver.quit()
        server.stop()
        shutil.rmtree(workspace, ignore_errors=True)
    print(f"open-site: {results.count(True)} passed, {results.count(False)} failed")
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
