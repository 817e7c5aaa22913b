#!/usr/bin/env python3
"""Live reload in a real browser.

Starts the built `storysite serve --port 0` in a temporary copy of the demo, opens a page in
headless Chromium (Debian's chromium and chromium-driver, driven by selenium), and checks that:
  1. saving a story shows the new text within 2 s, without a manual reload;
  2. a broken template shows the error overlay (also on a freshly opened page);
  3. fixing the template removes the overlay by reloading the page.
Prints `browser: N passed, M failed` and exits non-zero on any failure. Every wait is bounded.

Usage: live_reload_test.py [path/to/storysite]   (default: .build/debug/storysite)
"""
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException, TimeoutException
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

REPOSITORY = Path(__file__).resolve().parents[2]
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver")
OVERLAY = "storysite-error-overlay"
OLD_TEXT = "We build calm software for small shops."
NEW_TEXT = "We build saved software for small shops."


class Server:
    """`storysite serve --port 0 [arguments]` in `workspace`; its URL is read from the line it prints."""

    def __init__(self, executable, workspace, arguments=()):
        self.process = subprocess.Popen(
            [str(executable), "serve", "--port", "0", *arguments], cwd=workspace,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            env={**os.environ, "NO_COLOR": "1"})
        self.lines = []
        self.url = None
        self.ready = threading.Event()
        threading.Thread(target=self._read, args=(self.process.stdout,), daemon=True).start()
        threading.Thread(target=self._read, args=(self.process.stderr,), daemon=True).start()
        if not self.ready.wait(60) or self.url is None:
            raise RuntimeError("storysite serve printed no URL:\n" + "".join(self.lines))

    def _read(self, stream):
        for line in stream:
            self.lines.append(line)
            if line.startswith("Serving ") and " at " in line:
                self.url = line.split(" at ", 1)[1].split(" ", 1)[0]
                self.ready.set()
        self.ready.set()

    def stop(self):
        self.process.send_signal(signal.SIGTERM)
        try:
            return self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            return None


class Results:
    """Named checks, each printed as it passes or fails, and the summary line."""

    def __init__(self):
        self.outcomes = []

    def check(self, name, test):
        try:
            test()
            self.outcomes.append(True)
            print(f"ok   {name}")
        except (AssertionError, TimeoutException) as error:
            self.outcomes.append(False)
            print(f"FAIL {name}: {type(error).__name__}: {error}")

    def finish(self, label, server, status):
        """Counts `server`'s exit on SIGTERM (`status`) too; prints `label: N passed, M failed`; the exit code."""
        if status != 0:
            self.outcomes.append(False)
            print(f"FAIL storysite serve exited with {status} on SIGTERM:\n" + "".join(server.lines))
        passed, failed = self.outcomes.count(True), self.outcomes.count(False)
        print(f"{label}: {passed} passed, {failed} failed")
        return 0 if failed == 0 else 1



def wait(driver, seconds, **options):
    """A WebDriverWait that also looks again when the page reloaded under it (a stale element)."""
    return WebDriverWait(driver, seconds, ignored_exceptions=(StaleElementReferenceException,), **options)


def browser():
    options = Options()
    options.binary_location = CHROMIUM
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1200,900"]:
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(20)
    return driver


def open_page(driver, url):
    """Loads `url`, waits until its live-reload script listens, and marks the page so a reload shows."""
    driver.get(url)
    wait(driver, 10).until(
        lambda d: d.find_element(By.TAG_NAME, "html").get_attribute("data-storysite-build") is not None)
    driver.execute_script("window.storysiteTestMarker = true;")


def reloaded(driver):
    return driver.execute_script("return window.storysiteTestMarker === undefined;")


def overlay_text(driver):
    found = driver.find_elements(By.ID, OVERLAY)
    return found[0].text if found and found[0].is_displayed() else None


def main():
    executable = Path(sys.argv[1] if len(sys.argv) > 1 else REPOSITORY / ".build/debug/storysite").resolve()
    signal.alarm(240)  # the whole test is bounded, whatever hangs
    workspace = Path(tempfile.mkdtemp(prefix="storysite-browser-"))
    for item in ["Content", "Templates"]:
        shutil.copytree(REPOSITORY / item, workspace / item)
    shutil.copy(REPOSITORY / "storysite.json", workspace / "storysite.json")
    story = workspace / "Content/about.json"
    layout = workspace / "Templates/layout.mustache"
    good_layout = layout.read_text()

    results = Results()
    check = results.check
    server = Server(executable, workspace)
    driver = browser()
    try:
        page = server.url + "about/"

        def edited_story_appears():
            open_page(driver, page)
            assert OLD_TEXT in driver.page_source, "the demo's about page is not as expected"
            saved = time.monotonic()
            story.write_text(story.read_text().replace(OLD_TEXT, NEW_TEXT))
            wait(driver, 2, poll_frequency=0.05).until(
                lambda d: NEW_TEXT in d.find_element(By.TAG_NAME, "body").text, "the new text did not show within 2 s")
            assert reloaded(driver), "the text changed without the page reloading"
            print(f"     the saved text showed after {time.monotonic() - saved:.2f} s")

        def broken_template_shows_overlay():
            open_page(driver, page)
            layout.write_text(good_layout + "{{#unclosed}}\n")
            wait(driver, 5, poll_frequency=0.05).until(
                lambda d: overlay_text(d) is not None, "no error overlay within 5 s")
            text = overlay_text(driver)
            assert "Templates/layout.mustache:" in text and "unclosed" in text, f"the overlay says: {text!r}"
            assert NEW_TEXT in driver.find_element(By.TAG_NAME, "body").text, "the last good page is gone"
            open_page(driver, server.url)
            wait(driver, 5, poll_frequency=0.05).until(
                lambda d: overlay_text(d) is not None, "a page opened during the failure shows no overlay")

        def fix_reloads():
            open_page(driver, page)
            wait(driver, 5).until(lambda d: overlay_text(d) is not None, "the overlay is not shown")
            driver.execute_script("window.storysiteTestMarker = true;")
            layout.write_text(good_layout)
            wait(driver, 5, poll_frequency=0.05).until(
                lambda d: reloaded(d) and overlay_text(d) is None and d.find_element(By.TAG_NAME, "html").get_attribute("data-storysite-build"),
                "the page did not reload without the overlay within 5 s")

        check("a saved story shows in the open page within 2 s, without a manual reload", edited_story_appears)
        check("a broken template shows the error overlay, on open pages and new ones", broken_template_shows_overlay)
        check("fixing the template reloads the page without the overlay", fix_reloads)
    finally:
        driver.quit()
        status = server.stop()
        shutil.rmtree(workspace, ignore_errors=True)
    return results.finish("browser", server, status)


if __name__ == "__main__":
    sys.exit(main())
