#!/usr/bin/env python3
"""The Visual Editor in a real browser.

Writes a small draft space (stories with Storyblok's `_editable` markers) for the default theme,
serves a stub of the Storyblok Bridge from this test (storysite.json's `preview.bridge` points at
it), starts the built `storysite serve --version draft --strict --port 0`, opens the home page
in headless Chromium as the editor's frame would (with `_storyblok` query parameters), and checks
that:
  1. every block of the story has an element carrying its `data-blok-uid` (and `data-blok-c`);
  2. an `input` event with an edited story shows the new text without reloading the page and
     without any request but the render of the posted story;
  3. an `input` event whose story fails to render shows the error overlay over the last good page,
     and a good one afterwards removes it;
  4. a same-site link keeps the `_storyblok` query parameters;
  5. a `change` event rebuilds and reloads the page.
Prints `visual editor: N passed, M failed` and exits non-zero on any failure. Every wait is bounded.

Usage: visual_editor_test.py [path/to/storysite]   (default: .build/debug/storysite)
"""
import copy
import http.server
import json
import shutil
import signal
import sys
import tempfile
import threading
from pathlib import Path
from urllib.parse import parse_qs, urlparse

from selenium.webdriver.common.by import By

sys.path.insert(0, str(Path(__file__).resolve().parent))
from live_reload_test import OVERLAY, REPOSITORY, Results, Server, browser, overlay_text, reloaded, wait  # noqa: E402

EDITOR_QUERY = "?_storyblok=101&_storyblok_c=page&_storyblok_tk%5Bspace_id%5D=7"
OLD_HEADLINE = "Stock counts you can trust"
NEW_HEADLINE = "Stock counts, edited live"
NEW_FEATURE = "Counts while you type"

# A stub of the Storyblok Bridge: `new StoryblokBridge()` and `on(events, callback)` as the real
# one has them, and `storyblokStub.fire(action, story)` to send an event as the editor would.
BRIDGE_STUB = """
window.storyblokStub = { bridges: [], fire: function (action, story) {
  window.storyblokStub.bridges.forEach(function (bridge) {
    bridge.handlers.forEach(function (handler) {
      if (handler.events.indexOf(action) >= 0) handler.callback({ action: action, story: story, storyId: story ? story.id : null });
    });
  });
} };
window.StoryblokBridge = function () { this.handlers = []; window.storyblokStub.bridges.push(this); };
window.StoryblokBridge.prototype.on = function (events, callback) { this.handlers.push({ events: [].concat(events), callback: callback }); };
"""


def editable(block, story_id):
    """The `_editable` comment Storyblok's draft API gives a block."""
    options = {"name": block["component"], "space": "7", "uid": block["_uid"], "id": str(story_id)}
    return "<!--#storyblok#" + json.dumps(options) + "-->"


def with_markers(content, story_id):
    """`content` with `_editable` on every block, at any depth."""
    if isinstance(content, list):
        return [with_markers(item, story_id) for item in content]
    if isinstance(content, dict):
        marked = {key: with_markers(value, story_id) for key, value in content.items()}
        if "component" in marked and "_uid" in marked:
            marked["_editable"] = editable(marked, story_id)
        return marked
    return content


def block_uids(content):
    """`id-uid` of every block of `content`, as `data-blok-uid` writes them."""
    found = []
    if isinstance(content, list):
        for item in content:
            found += block_uids(item)
    elif isinstance(content, dict):
        if "_editable" in content:
            options = json.loads(content["_editable"][len("<!--#storyblok#"):-len("-->")])
            found.append(f"{options['id']}-{options['uid']}")
        for value in content.values():
            found += block_uids(value)
    return found


def text(value):
    return {"type": "doc", "content": [{"type": "paragraph", "content": [{"type": "text", "text": value}]}]}


HOME = {
    "id": 101, "uuid": "u-home", "name": "Home", "slug": "home", "full_slug": "home",
    "content": with_markers({
        "component": "page", "_uid": "root",
        "body": [
            {"component": "hero", "_uid": "hero", "variant": "centered", "headline": OLD_HEADLINE,
             "primary_label": "About us",
             "primary_link": {"fieldtype": "multilink", "linktype": "story", "id": "u-about", "cached_url": "about"}},
            {"component": "section", "_uid": "section", "heading": "Why", "background": "plain", "blocks": [
                {"component": "feature_grid", "_uid": "grid", "columns_count": "2", "columns": [
                    {"component": "feature", "_uid": "feature-1", "title": "Offline", "description": "Works without a network."},
                    {"component": "feature", "_uid": "feature-2", "title": "Scanners", "description": "Any barcode scanner."},
                ]},
            ]},
            {"component": "rich_text", "_uid": "text", "text": text("Small shops count on us.")},
        ],
    }, 101),
}
ABOUT = {
    "id": 102, "uuid": "u-about", "name": "About", "slug": "about", "full_slug": "about",
    "content": with_markers({"component": "page", "_uid": "about-root", "body": [
        {"component": "rich_text", "_uid": "about-text", "text": text("We are a small team.")}]}, 102),
}


class BridgeServer:
    """Serves the bridge stub on 127.0.0.1, on a port of its own."""

    def __init__(self):
        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                body = BRIDGE_STUB.encode()
                self.send_response(200)
                self.send_header("Content-Type", "text/javascript")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *arguments):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/storyblok-bridge-stub.js"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def stop(self):
        self.server.shutdown()


def main():
    executable = Path(sys.argv[1] if len(sys.argv) > 1 else REPOSITORY / ".build/debug/storysite").resolve()
    signal.alarm(240)  # the whole test is bounded, whatever hangs
    workspace = Path(tempfile.mkdtemp(prefix="storysite-editor-"))
    shutil.copytree(REPOSITORY / "Templates", workspace / "Templates")
    (workspace / "Content").mkdir()
    for story in [HOME, ABOUT]:
        (workspace / "Content" / f"{story['slug']}.json").write_text(json.dumps({"story": story}))
    bridge = BridgeServer()
    (workspace / "storysite.json").write_text(json.dumps({"site": {"title": "Editor test"}, "preview": {"bridge": bridge.url}}))

    results = Results()
    check = results.check
    server = Server(executable, workspace, ["--version", "draft", "--strict"])
    driver = browser()
    home = server.url + EDITOR_QUERY

    def open_in_editor(url):
        driver.get(url)
        wait(driver, 10).until(
            lambda d: d.find_element(By.TAG_NAME, "html").get_attribute("data-storysite-editor") == "listening"
            and d.find_element(By.TAG_NAME, "html").get_attribute("data-storysite-build") is not None,
            "the page's editor handler did not start listening to the bridge")
        driver.execute_script("window.storysiteTestMarker = true;")

    def fire(action, story):
        driver.execute_script("window.storyblokStub.fire(arguments[0], arguments[1]);", action, story)

    def renders():
        return int(driver.find_element(By.TAG_NAME, "html").get_attribute("data-storysite-editor-render") or 0)

    def markers_missing(story):
        missing = []
        for uid in block_uids(story["content"]):
            elements = driver.find_elements(By.CSS_SELECTOR, f'[data-blok-uid="{uid}"]')
            if not elements or not all(json.loads(e.get_attribute("data-blok-c"))["uid"] == uid.split("-", 1)[1] for e in elements):
                missing.append(uid)
        return missing

    def edited(headline, feature):
        story = copy.deepcopy(HOME)
        story["content"]["body"][0]["headline"] = headline
        story["content"]["body"][1]["blocks"][0]["columns"][0]["title"] = feature
        return story

    try:
        def every_block_is_marked():
            open_in_editor(home)
            assert OLD_HEADLINE in driver.find_element(By.TAG_NAME, "h1").text
            missing = markers_missing(HOME)
            assert not missing, f"blocks without an element carrying their data-blok-uid: {missing}"
            served = (workspace / "Output/index.html").read_text()
            assert "data-storysite-visual-editor" not in served, "the editor's script was written into the file"

        def input_shows_the_edit_without_fetching():
            open_in_editor(home)
            before = driver.execute_script("return performance.getEntriesByType('resource').length;")
            fire("input", edited(NEW_HEADLINE, NEW_FEATURE))
            wait(driver, 5, poll_frequency=0.05).until(lambda d: renders() == 1, "the edit was not rendered within 5 s")
            body = driver.find_element(By.TAG_NAME, "body").text
            assert NEW_HEADLINE in body and NEW_FEATURE in body, f"the page does not show the edit: {body[:300]!r}"
            assert not reloaded(driver), "the page reloaded instead of showing the edit in place"
            requests = driver.execute_script(
                "return performance.getEntriesByType('resource').slice(arguments[0]).map(function (e) { return e.name; });", before)
            assert requests and all("/_storysite/editor/render?" in url for url in requests), f"requests besides the render: {requests}"
            assert not markers_missing(HOME), "blocks of the edited page lost their data-blok-uid"
            assert NEW_HEADLINE not in (workspace / "Output/index.html").read_text(), "the edit was written to the site"

        def failed_render_shows_the_overlay():
            open_in_editor(home)
            fire("input", edited(NEW_HEADLINE, NEW_FEATURE))
            wait(driver, 5, poll_frequency=0.05).until(lambda d: renders() == 1, "the edit was not rendered")
            broken = edited("Never shown", NEW_FEATURE)
            broken["content"]["body"].append({"component": "banner", "_uid": "new-block"})
            fire("input", broken)
            wait(driver, 5, poll_frequency=0.05).until(lambda d: overlay_text(d) is not None, "no overlay within 5 s")
            shown = overlay_text(driver)
            assert "banner" in shown and "Templates/components/banner.mustache" in shown, f"the overlay says: {shown!r}"
            assert NEW_HEADLINE in driver.find_element(By.TAG_NAME, "h1").text, "the last good render is gone"
            fire("input", edited(OLD_HEADLINE, "Fixed again"))
            wait(driver, 5, poll_frequency=0.05).until(
                lambda d: renders() == 2 and not d.find_elements(By.ID, OVERLAY), "the overlay stayed after a good edit")
            assert "Fixed again" in driver.find_element(By.TAG_NAME, "body").text

        def links_keep_the_editor_parameters():
            open_in_editor(home)
            driver.find_element(By.CSS_SELECTOR, ".hero a.button").click()
            wait(driver, 5).until(lambda d: urlparse(d.current_url).path == "/about/", "the link did not lead to /about/")
            query = parse_qs(urlparse(driver.current_url).query)
            assert query.get("_storyblok") == ["101"] and query.get("_storyblok_tk[space_id]") == ["7"], f"lost: {driver.current_url}"

        def change_rebuilds_and_reloads():
            open_in_editor(server.url + "about/" + EDITOR_QUERY)
            fire("change", ABOUT)
            wait(driver, 10, poll_frequency=0.05).until(reloaded, "the page did not reload after a change event")

        check("every block of the story carries data-blok-uid and data-blok-c", every_block_is_marked)
        check("an input event shows the edited story at once, with no request but its render", input_shows_the_edit_without_fetching)
        check("a story that fails to render shows the overlay over the last good page", failed_render_shows_the_overlay)
        check("same-site links keep the _storyblok query parameters", links_keep_the_editor_parameters)
        check("a change event rebuilds and reloads the page", change_rebuilds_and_reloads)
    finally:
        driver.quit()
        status = server.stop()
        bridge.stop()
        shutil.rmtree(workspace, ignore_errors=True)
    return results.finish("visual editor", server, status)


if __name__ == "__main__":
    sys.exit(main())
