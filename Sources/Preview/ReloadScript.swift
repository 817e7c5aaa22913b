/// The script added to every served HTML page (in the response only, never on disk). It listens
/// to ``LiveReload/eventsPath``: `reload` reloads the page; `error` shows a fixed panel listing
/// `location: message` lines, set through `textContent` so nothing in a message is markup;
/// the page carries the number of the build it was served from, and `hello` the number of the
/// latest, so a page that connects or reconnects after missing a rebuild reloads (serve reads the
/// API while the last build is served, and a page may load before that build and connect after
/// it); the page's `<html>` gets the number as `data-storysite-build` once listening (tests wait
/// for that).
/// Other scripts of the preview show problems in the same panel through
/// `window.storysiteOverlay.show(problems, {title, note, owner})` and `hide(owner)`.
enum ReloadScript {
    /// The script of a page served from the build numbered `build` (``LiveReload/currentBuild``).
    static func tag(servedFrom build: Int) -> String {
        """
        <script data-storysite-live-reload>
        (function () {
          if (!window.EventSource) return;
          var servedBuild = \(build), panel = null;
          function hide(owner) {
            if (panel && (!owner || panel.getAttribute('data-owner') === owner)) { panel.remove(); panel = null; }
          }
          function show(problems, options) {
            options = options || {};
            hide();
            panel = document.createElement('div');
            panel.id = 'storysite-error-overlay';
            panel.setAttribute('role', 'alert');
            panel.setAttribute('data-owner', options.owner || 'build');
            // `all:initial` first on every element, so no rule of the site's own CSS applies.
            panel.style.cssText = 'all:initial;position:fixed;inset:0;z-index:2147483647;overflow:auto;box-sizing:border-box;'
              + 'display:block;margin:0;padding:24px 32px;background:#18181b;color:#f4f4f5;text-align:left;'
              + 'font:14px/1.6 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace';
            var title = document.createElement('h2');
            title.textContent = options.title || 'storysite: the build failed';
            title.style.cssText = 'all:initial;display:block;margin:0 0 16px;color:#fca5a5;font:600 20px/1.3 system-ui,sans-serif';
            var list = document.createElement('pre');
            list.style.cssText = 'all:initial;display:block;margin:0;white-space:pre-wrap;word-break:break-word;'
              + 'color:#fecaca;font:14px/1.6 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace';
            list.textContent = problems.map(function (p) { return p.location + ': ' + p.message; }).join('\\n');
            var note = document.createElement('p');
            note.textContent = options.note || 'The last good site is still served. Save a fix and this page reloads.';
            note.style.cssText = 'all:initial;display:block;margin:16px 0 0;color:#a1a1aa;font:14px/1.5 system-ui,sans-serif';
            panel.appendChild(title);
            panel.appendChild(list);
            panel.appendChild(note);
            document.body.appendChild(panel);
          }
          window.storysiteOverlay = { show: show, hide: hide };
          var events = new EventSource('/_storysite/events');
          events.addEventListener('hello', function (event) {
            var build = JSON.parse(event.data).build;
            if (build !== servedBuild) { location.reload(); return; }
            document.documentElement.setAttribute('data-storysite-build', String(build));
            hide();
          });
          events.addEventListener('reload', function () { location.reload(); });
          events.addEventListener('error', function (event) {
            if (typeof event.data !== 'string') return;  // a dropped connection, not a build error
            show(JSON.parse(event.data).problems);
          });
        })();
        </script>

        """
    }

    /// `html`, served from the build numbered `build`, with the script inserted before the last
    /// `</body>` (any case), or appended when there is none.
    static func inject(into html: [UInt8], servedFrom build: Int) -> [UInt8] {
        insert(tag(servedFrom: build), into: html)
    }

    /// `html` with `script` inserted before the last `</body>` (any case), or appended when
    /// there is none.
    static func insert(_ script: String, into html: [UInt8]) -> [UInt8] {
        let script = Array(script.utf8)
        guard let index = lastBodyClose(in: html) else { return html + script }
        return Array(html[..<index]) + script + Array(html[index...])
    }

    private static func lastBodyClose(in html: [UInt8]) -> Int? {
        let needle = Array("</body".utf8)
        var index = html.count - needle.count
        while index >= 0 {
            var matches = true
            for offset in 0..<needle.count {
                var byte = html[index + offset]
                if byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") { byte += 32 }
                if byte != needle[offset] { matches = false; break }
            }
            if matches { return index }
            index -= 1
        }
        return nil
    }
}
