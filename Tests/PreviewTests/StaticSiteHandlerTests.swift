import Foundation
import Testing
import TestSupport
@testable import Preview

extension PreviewTests {
    @Suite("Serving a folder")
    struct StaticSiteHandlerTests {
        @Test("a folder serves its index.html as HTML with no-cache, and the reload script is in the response only")
        func index() async throws {
            let fixture = try SiteFixture()
            try await fixture.serve { port in
                let response = try await LoopbackConnection.request("GET", "/", port: port)
                #expect(response.status == 200)
                #expect(response.headers["content-type"] == "text/html; charset=utf-8")
                #expect(response.headers["cache-control"] == "no-cache")
                #expect(response.text.contains("<h1>Home</h1>"))
                #expect(response.text.contains("/_storysite/events"))
                #expect(response.text.range(of: "data-storysite-live-reload")!.lowerBound < response.text.range(of: "</body>")!.lowerBound)
                #expect(response.headers["content-length"] == String(response.body.count))
                #expect(try fixture.workspace.read("site/index.html") == SiteFixture.home)
            }
        }

        @Test("the script goes before </BODY> in any case, and pages without a hub get none")
        func injection() async throws {
            let fixture = try SiteFixture()
            try await fixture.serve { port in
                let response = try await LoopbackConnection.request("GET", "/about/", port: port)
                #expect(response.text.hasSuffix("</script>\n</BODY></html>"))
                let css = try await LoopbackConnection.request("GET", "/assets/style.css", port: port)
                #expect(css.text == "body{}")
            }
            try await fixture.serve(liveReload: nil) { port in
                let response = try await LoopbackConnection.request("GET", "/about/", port: port)
                #expect(response.text == "<html><body><h1>About</h1></BODY></html>")
            }
        }

        @Test("every kind of file gets its Content-Type", arguments: [
            ("style.css", "text/css; charset=utf-8"), ("app.js", "text/javascript; charset=utf-8"),
            ("data.json", "application/json"), ("feed.xml", "application/xml"), ("logo.svg", "image/svg+xml"),
            ("image.png", "image/png"), ("photo.jpg", "image/jpeg"), ("anim.gif", "image/gif"),
            ("pic.webp", "image/webp"), ("favicon.ico", "image/x-icon"), ("font.woff2", "font/woff2"),
            ("notes.txt", "text/plain; charset=utf-8"), ("page.html", "text/html; charset=utf-8"),
        ])
        func contentTypes(file: String, type: String) async throws {
            let fixture = try SiteFixture()
            try await fixture.serve { port in
                let response = try await LoopbackConnection.request("GET", "/assets/\(file)", port: port)
                #expect(response.status == 200)
                #expect(response.headers["content-type"] == type)
                #expect(response.headers["cache-control"] == "no-cache")
                if !type.hasPrefix("text/html") { #expect(response.text == SiteFixture.assets[file]) }
            }
        }

        @Test("a folder asked for without its slash redirects to it, keeping the query")
        func redirect() async throws {
            let fixture = try SiteFixture()
            try await fixture.serve { port in
                let response = try await LoopbackConnection.request("GET", "/about", port: port)
                #expect(response.status == 301)
                #expect(response.headers["location"] == "/about/")
                let withQuery = try await LoopbackConnection.request("GET", "/a%20b?x=1", port: port)
                #expect(withQuery.status == 301)
                #expect(withQuery.headers["location"] == "/a%20b/?x=1")
                let followed = try await LoopbackConnection.request("GET", "/a%20b/", port: port)
                #expect(followed.status == 200)
                #expect(followed.text.contains("spaced"))
            }
        }

        @Test("a redirect never points at another host")
        func redirectStaysHome() async throws {
            let fixture = try SiteFixture()
            try await fixture.serve { port in
                let response = try await LoopbackConnection.request("GET", "//about", port: port)
                #expect(response.status == 301)
                #expect(response.headers["location"] == "/about/")
            }
        }

        @Test("a missing file serves the site's 404.html with status 404")
        func notFound() async throws {
            let fixture = try SiteFixture()
            try await fixture.serve { port in
                for target in ["/nope", "/nope/", "/assets/missing.css", "/empty/"] {
                    let response = try await LoopbackConnection.request("GET", target, port: port)
                    #expect(response.status == 404, "\(target)")
                    #expect(response.text.contains("Custom missing page"), "\(target)")
                    #expect(response.headers["content-type"] == "text/html; charset=utf-8")
                    #expect(response.text.contains("/_storysite/events"))
                }
            }
        }

        @Test("a site without 404.html still answers 404 with a page")
        func builtInNotFound() async throws {
            let fixture = try SiteFixture(notFoundPage: false)
            try await fixture.serve { port in
                let response = try await LoopbackConnection.request("GET", "/nope", port: port)
                #expect(response.status == 404)
                #expect(response.text.contains("Not found"))
            }
        }

        @Test("HEAD sends the headers of GET and no body")
        func head() async throws {
            let fixture = try SiteFixture()
            try await fixture.serve { port in
                let get = try await LoopbackConnection.request("GET", "/assets/data.json", port: port)
                let head = try await LoopbackConnection.request("HEAD", "/assets/data.json", port: port)
                #expect(head.status == 200)
                #expect(head.headers["content-type"] == "application/json")
                #expect(head.headers["content-length"] == String(get.body.count))
                #expect(head.headers["cache-control"] == "no-cache")
                let connection = try LoopbackConnection(port: port)
                connection.send("HEAD /nope HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
                await connection.read { _ in false }
                #expect(connection.text.hasPrefix("HTTP/1.1 404"))
                #expect(connection.text.hasSuffix("\r\n\r\n"))
            }
        }

        @Test("methods other than GET and HEAD get 405 naming the allowed ones")
        func otherMethods() async throws {
            let fixture = try SiteFixture()
            try await fixture.serve { port in
                let response = try await LoopbackConnection.request("DELETE", "/index.html", port: port)
                #expect(response.status == 405)
                #expect(response.headers["allow"] == "GET, HEAD")
            }
        }

        @Test("a symlink whose target stays inside the folder is served")
        func insideSymlink() async throws {
            let fixture = try SiteFixture()
            try await fixture.serve { port in
                let response = try await LoopbackConnection.request("GET", "/inside", port: port)
                #expect(response.status == 200)
                #expect(response.text.contains("About"))
            }
        }

        @Test("no request reaches outside the served folder", arguments: [
            "/../secret.txt", "/assets/../../secret.txt", "/%2e%2e/secret.txt", "/%2E%2E/secret.txt",
            "/..%2fsecret.txt", "/..%2Fsecret.txt", "/assets%2f..%2f..%2fsecret.txt", "/.%2e/secret.txt",
            "/..%5csecret.txt", "/%2e%2e%5csecret.txt", "/%252e%252e/secret.txt", "/index.html%00.txt",
            "/%00", "/a%0ab", "/leak", "/leakdir/secret.txt", "/./index.html",
            "/" + String(repeating: "a/", count: 1100), "/" + String(repeating: "%2e%2e/", count: 400) + "secret.txt",
            "secret.txt", "/%c0%ae%c0%ae/secret.txt",
        ])
        func traversal(target: String) async throws {
            let fixture = try SiteFixture()
            try await fixture.serve { port in
                let response = try await LoopbackConnection.request("GET", target, port: port)
                #expect([400, 403, 404].contains(response.status), "\(target.prefix(80)) → \(response.status)")
                #expect(!response.text.contains(SiteFixture.secret))
            }
        }

        @Test("refusals are specific: encoded dots and slashes and symlinks out are 403, NUL and overlong are too")
        func refusalStatuses() async throws {
            let fixture = try SiteFixture()
            try await fixture.serve { port in
                for target in ["/%2e%2e/secret.txt", "/..%2fsecret.txt", "/%00", "/leak", "/leakdir/secret.txt", "/" + String(repeating: "a", count: 3000)] {
                    let response = try await LoopbackConnection.request("GET", target, port: port)
                    #expect(response.status == 403, "\(target.prefix(60))")
                }
            }
        }
    }
}
