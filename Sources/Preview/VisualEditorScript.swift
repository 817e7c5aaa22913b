import Foundation

/// The script added to HTML responses for Storyblok's Visual Editor (see ``VisualEditor``).
/// Inside the editor (in a frame, or with `_storyblok` in the query) it loads the Storyblok
/// Bridge and listens to it:
/// - `input` (an edit as it is typed): posts the story of the event to the render endpoint and
///   swaps the page's `<body>` and title for the answer; nothing is fetched from the content
///   source. A render that fails shows its problems in the preview's error overlay and leaves
///   the page as it was; one answer at a time, the latest edit last;
/// - `change` and `published`: asks the refresh endpoint to fetch the story again; the page then
///   reloads with the rebuilt site.
/// Same-site links keep the page's `_storyblok…` query parameters, so pages opened in the
/// editor's frame stay in the editor. The page's `<html>` gets `data-storysite-editor` once
/// the bridge is listening, and `data-storysite-editor-render` (a count) after each swap.
enum VisualEditorScript {
    /// The handler for a bridge at `bridge`, carrying `token`.
    static func tags(bridge: String, token: String) -> String {
        "<script data-storysite-visual-editor>\n(function () {\n"
            + "  var bridgeURL = \(javaScriptString(bridge)), token = \(javaScriptString(token));\n"
            + handler + "})();\n</script>\n"
    }

    /// `text` as a JavaScript string literal that cannot end the `<script>` element.
    private static func javaScriptString(_ text: String) -> String {
        let json = (try? JSONEncoder().encode(text)).map { String(decoding: $0, as: UTF8.self) } ?? "\"\""
        return json.replacingOccurrences(of: "<", with: "\\u003c")
    }

    private static let handler = """
          var editorParams = [];
          new URLSearchParams(location.search).forEach(function (value, name) {
            if (name.indexOf('_storyblok') === 0) editorParams.push([name, value]);
          });
          if (window.self === window.top && editorParams.length === 0) return;

          document.addEventListener('click', function (event) {
            if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
            var link = event.target.closest ? event.target.closest('a[href]') : null;
            if (!link || (link.target && link.target !== '_self') || link.hasAttribute('download')) return;
            var url = new URL(link.href, location.href);
            if (url.origin !== location.origin) return;
            var added = false;
            editorParams.forEach(function (param) {
              if (!url.searchParams.has(param[0])) { url.searchParams.append(param[0], param[1]); added = true; }
            });
            if (added) link.href = url.href;
          }, true);

          function post(path, body) {
            return fetch(path, {
              method: 'POST', cache: 'no-store', body: body,
              headers: { 'Content-Type': 'application/json', 'X-Storysite-Editor-Token': token }
            });
          }
          function showProblems(problems) {
            if (!window.storysiteOverlay) { console.error(problems); return; }
            window.storysiteOverlay.show(problems, {
              owner: 'editor', title: 'storysite: the edit could not be shown',
              note: 'The page shows the last edit that rendered. Keep editing, or undo the change.'
            });
          }
          var renders = 0, rendering = false, waiting = null;
          function swap(html) {
            var page = new DOMParser().parseFromString(html, 'text/html');
            document.title = page.title;
            document.body.replaceWith(document.adoptNode(page.body));
            if (window.storysiteOverlay) window.storysiteOverlay.hide('editor');
            renders += 1;
            document.documentElement.setAttribute('data-storysite-editor-render', String(renders));
          }
          function render(story) {
            if (rendering) { waiting = story; return; }
            rendering = true;
            post('/_storysite/editor/render?path=' + encodeURIComponent(location.pathname), JSON.stringify(story))
              .then(function (response) {
                if (response.ok) return response.text().then(swap);
                if (response.status === 409) return;  // the edit is of another story than this page's
                return response.json().then(function (answer) { showProblems(answer.problems); }, function () {
                  showProblems([{ location: location.pathname, message: 'the preview answered ' + response.status }]);
                });
              })
              .catch(function (error) { showProblems([{ location: location.pathname, message: String(error) }]); })
              .then(function () {
                rendering = false;
                if (waiting) { var next = waiting; waiting = null; render(next); }
              });
          }
          function refresh(event) {
            post('/_storysite/editor/refresh', JSON.stringify({ action: event.action, storyId: event.storyId || (event.story && event.story.id) || null }));
          }

          var script = document.createElement('script');
          script.src = bridgeURL;
          script.async = true;
          script.id = 'storyblok-javascript-bridge';
          script.onload = function () {
            if (!window.StoryblokBridge) return;
            var bridge = new window.StoryblokBridge();
            bridge.on(['input', 'change', 'published'], function (event) {
              if (event.action === 'input' && event.story) render(event.story);
              else if (event.action === 'change' || event.action === 'published') refresh(event);
            });
            document.documentElement.setAttribute('data-storysite-editor', 'listening');
          };
          document.head.appendChild(script);

        """
}
