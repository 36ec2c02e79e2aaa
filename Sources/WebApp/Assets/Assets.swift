import Foundation
import HTTPServing
import Hummingbird

/// What the pages load besides themselves, compiled into the binary: the script, the stylesheet, the icons, the web
/// app manifest and the service worker that keeps the page shell for when the box cannot be reached. Anyone may fetch
/// these (`AccessMiddleware.open`): they say nothing of the box, and a browser fetches a manifest without its cookies.
enum Assets {
    static let paths = ["/assets/app.js", "/assets/app.css", "/assets/icon.svg", "/assets/icon-192.png", "/assets/icon-512.png",
                        "/assets/icon-maskable-512.png", "/assets/offline.html", "/manifest.webmanifest", "/sw.js"]

    static func add(to router: Router<ClientRequestContext>) {
        let served: [String: (Data, String)] = [
            "/assets/app.js": (Data(script.utf8), "text/javascript; charset=utf-8"),
            "/assets/app.css": (Data(style.utf8), "text/css; charset=utf-8"),
            "/assets/icon.svg": (Data(Icons.svg.utf8), "image/svg+xml"),
            "/assets/icon-192.png": (Icons.png192, "image/png"),
            "/assets/icon-512.png": (Icons.png512, "image/png"),
            "/assets/icon-maskable-512.png": (Icons.maskable512, "image/png"),
            "/assets/offline.html": (Data(offline.utf8), "text/html; charset=utf-8"),
            "/manifest.webmanifest": (Data(manifest.utf8), "application/manifest+json"),
            "/sw.js": (Data(serviceWorker.utf8), "text/javascript; charset=utf-8"),
        ]
        for path in paths {
            guard let (data, type) = served[path] else { preconditionFailure("no asset at \(path)") }
            // The service worker is asked for again at every visit, so a new daemon's shell replaces the old one.
            let caching = path == "/sw.js" ? "no-cache" : "max-age=3600"
            router.get(RouterPath(path)) { _, _ in
                Response(status: .ok, headers: [.contentType: type, .cacheControl: caching],
                         body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
            }
        }
    }

    /// Names this build's shell: a new script or stylesheet is a new cache, and the old one is dropped.
    static let version = String(StableHash.of(script + style + offline), radix: 16)

    /// The page shell kept for offline use, never audio, the API or a page's data: everything else goes to the network
    /// as if there were no worker, and a page that cannot be fetched is the offline page.
    static let serviceWorker = """
    "use strict";
    var SHELL = "onair-shell-\(version)";
    var FILES = ["/assets/app.css", "/assets/app.js", "/assets/icon.svg", "/assets/offline.html"];
    self.addEventListener("install", function (event) {
      event.waitUntil(caches.open(SHELL).then(function (cache) { return cache.addAll(FILES); }).then(function () { return self.skipWaiting(); }));
    });
    self.addEventListener("activate", function (event) {
      event.waitUntil(caches.keys().then(function (names) {
        return Promise.all(names.filter(function (name) { return name !== SHELL; }).map(function (name) { return caches.delete(name); }));
      }).then(function () { return self.clients.claim(); }));
    });
    self.addEventListener("fetch", function (event) {
      var request = event.request, url = new URL(request.url);
      if (request.method !== "GET" || url.origin !== self.location.origin) return;
      if (FILES.indexOf(url.pathname) >= 0) {
        event.respondWith(caches.match(request).then(function (kept) { return kept || fetch(request); }));
      } else if (request.mode === "navigate") {
        event.respondWith(fetch(request).catch(function () { return caches.match("/assets/offline.html"); }));
      }
    });
    """

    /// What a browser installs: the app's name, where it starts, its icons and colours.
    static let manifest = """
    {"name": "onair", "short_name": "onair", "description": "Listen to, record and relay internet radio on your own box.",
     "start_url": "/", "scope": "/", "display": "standalone", "background_color": "#ffffff", "theme_color": "#0b57d0",
     "icons": [{"src": "/assets/icon-192.png", "sizes": "192x192", "type": "image/png", "purpose": "any"},
               {"src": "/assets/icon-512.png", "sizes": "512x512", "type": "image/png", "purpose": "any"},
               {"src": "/assets/icon-maskable-512.png", "sizes": "512x512", "type": "image/png", "purpose": "maskable"},
               {"src": "/assets/icon.svg", "sizes": "any", "type": "image/svg+xml"}]}
    """

    static let offline = """
    <!doctype html>
    <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
    <meta name="color-scheme" content="light dark"><title>Offline · onair</title><link rel="stylesheet" href="/assets/app.css"></head>
    <body><main id="main"><h1>The box cannot be reached</h1>
    <p>onair could not reach the box that serves this app: its network, or the box itself, is away. What is playing plays on as long as
    the browser has it.</p><p><a href="/">Try again</a></p></main></body></html>
    """
}
