import Hummingbird

/// The script and the stylesheet, compiled into the binary: the pages work without them, they add live
/// titles, chapter jumps, a confirmation before deleting and an episode's resume position.
enum Assets {
    static func response(_ text: String, type: String) -> Response {
        Response(status: .ok, headers: [.contentType: type, .cacheControl: "max-age=3600"],
                 body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }

    /// Live titles from the daemon's event stream (Server-Sent Events), chapters that seek the player,
    /// a question before a form marked `data-confirm` is sent, and where an episode's player was left.
    /// Text is only ever set as text.
    static let script = #"""
    "use strict";
    (function () {
      function showTitle(event) {
        if (!event || event.type !== "title" || typeof event.station !== "string") return;
        document.querySelectorAll("[data-live-title]").forEach(function (element) {
          if (element.getAttribute("data-live-title") === event.station) element.textContent = event.title || "";
        });
      }

      function listen() {
        if (!window.EventSource || !document.querySelector("[data-live-title]")) return;
        var source = new EventSource("/api/v1/events");
        var read = function (message) {
          try { showTitle(JSON.parse(message.data)); } catch (ignored) { /* not an event of ours */ }
        };
        source.onmessage = read;
        source.addEventListener("title", read);
      }

      function chapters() {
        var player = document.getElementById("player");
        if (!player) return;
        document.querySelectorAll("[data-seek]").forEach(function (link) {
          link.addEventListener("click", function (click) {
            click.preventDefault();
            player.currentTime = parseFloat(link.getAttribute("data-seek"));
            player.play();
          });
        });
      }

      function confirmations() {
        document.querySelectorAll("form[data-confirm]").forEach(function (form) {
          form.addEventListener("submit", function (submit) {
            if (!window.confirm(form.getAttribute("data-confirm"))) submit.preventDefault();
          });
        });
      }

      // Where the player was paused or ended, posted with the page's CSRF token (form#position), so the
      // episode resumes there here and in `onair play`.
      function positions() {
        var player = document.getElementById("player");
        var form = document.getElementById("position");
        if (!player || !form || !window.fetch) return;
        var save = function (heard) {
          var body = new URLSearchParams(new FormData(form));
          body.set("seconds", String(player.currentTime));
          body.set("heard", heard ? "true" : "false");
          fetch(form.action, { method: "POST", body: body, credentials: "same-origin", redirect: "manual", keepalive: true });
        };
        player.addEventListener("pause", function () { if (!player.ended) save(false); });
        player.addEventListener("ended", function () { save(true); });
      }

      document.addEventListener("DOMContentLoaded", function () { listen(); chapters(); confirmations(); positions(); });
    })();
    """#

    /// One column on a phone, wider cards on a laptop; nothing wider than the screen; visible focus.
    static let style = #"""
    :root { --ink: #1b1d21; --muted: #5b6170; --line: #d9dce3; --accent: #0b57d0; --bad: #b3261e; --paper: #fff; --soft: #f3f5f9; }
    * { box-sizing: border-box; }
    html { -webkit-text-size-adjust: 100%; }
    body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); background: var(--paper);
           overflow-wrap: anywhere; }
    a { color: var(--accent); }
    :focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
    .skip { position: absolute; left: -999px; }
    .skip:focus { left: 8px; top: 8px; background: var(--paper); padding: 8px; z-index: 1; }
    .top { display: flex; flex-wrap: wrap; align-items: center; gap: 4px 16px; padding: 8px 16px; background: var(--soft);
           border-bottom: 1px solid var(--line); }
    .brand { font-weight: 700; text-decoration: none; color: var(--ink); }
    nav ul { display: flex; flex-wrap: wrap; gap: 4px 12px; list-style: none; margin: 0; padding: 0; }
    .logout { margin-left: auto; }
    nav a { display: inline-block; padding: 8px 4px; }
    nav a[aria-current="page"] { font-weight: 700; color: var(--ink); }
    main { max-width: 60rem; margin: 0 auto; padding: 8px 16px 48px; }
    h1 { font-size: 1.6rem; margin: 16px 0 8px; }
    h2 { font-size: 1.2rem; margin: 24px 0 8px; }
    .notice, .error { padding: 8px 12px; border-radius: 6px; }
    .notice { background: #e6f4ea; }
    .error { background: #fce8e6; color: var(--bad); }
    .meta, .reason { color: var(--muted); }
    .failed .status, .failed .reason { color: var(--bad); }
    .cards { list-style: none; padding: 0; margin: 0; display: grid; gap: 8px; }
    .visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
    .timeline { margin: 0 0 12px; }
    .timeline figcaption { font-weight: 600; }
    .lane { list-style: none; position: relative; height: 24px; margin: 4px 0 0; padding: 0; background: var(--soft);
            border: 1px solid var(--line); border-radius: 4px; }
    .mark { position: absolute; top: 2px; bottom: 2px; border-radius: 2px; background: var(--accent); }
    .mark.ad { background: var(--bad); }
    .mark.jingle, .mark.id { background: #7a4fb5; }
    .hours { display: flex; justify-content: space-between; color: var(--muted); font-size: 0.8em; }
    .table { overflow-x: auto; }
    table { border-collapse: collapse; width: 100%; }
    th, td { text-align: left; padding: 6px 8px; border-bottom: 1px solid var(--line); }
    .cards li { border: 1px solid var(--line); border-radius: 8px; padding: 10px 12px; display: flex; flex-wrap: wrap; gap: 4px 12px;
                align-items: baseline; }
    .cards .title { font-weight: 600; }
    .cards form { margin: 0; }
    .live:not(:empty)::before { content: "♪ "; }
    /* A job's title has one line of its own, kept while empty and never wrapped, and a card's lines are not spread
       to a taller neighbour's height: a title arriving or changing, here or in the next card, never moves a Stop button. */
    #status-jobs li { align-content: flex-start; }
    #status-jobs .live { flex-basis: 100%; min-width: 0; min-height: 1.5em; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
    .row { display: flex; gap: 8px; }
    .row input { flex: 1; min-width: 0; }
    .stack { display: grid; gap: 6px; max-width: 32rem; margin-bottom: 16px; }
    label { font-weight: 600; }
    input, select, button, .button { font: inherit; padding: 8px 10px; border-radius: 6px; border: 1px solid var(--line); max-width: 100%; }
    button, .button { background: var(--accent); color: #fff; border-color: var(--accent); cursor: pointer; text-decoration: none;
                      display: inline-block; }
    button.danger { background: var(--bad); border-color: var(--bad); }
    button[aria-pressed="true"] { background: var(--paper); color: var(--accent); }
    .actions { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; margin-top: 16px; }
    .actions form { margin: 0; }
    .row select { flex: 1; min-width: 0; }
    .row label { align-self: center; }
    .marks { display: inline-flex; gap: 8px; }
    .cards .description, .cards .actions { flex-basis: 100%; margin: 0; }
    .cards li.on-air { border-color: var(--accent); border-width: 2px; }
    .progress { color: var(--muted); font-style: italic; }
    audio { width: 100%; margin: 8px 0; }
    .chapters { padding-left: 1.5rem; }
    .chapters li { padding: 4px 0; }
    .at { font-variant-numeric: tabular-nums; color: var(--muted); }
    @media (min-width: 48rem) {
      .cards { grid-template-columns: repeat(2, minmax(0, 1fr)); }
      .columns { display: grid; grid-template-columns: repeat(2, minmax(0, 1fr)); gap: 0 32px; }
    }
    """#
}
