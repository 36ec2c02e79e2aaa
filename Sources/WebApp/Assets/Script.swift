extension Assets {
    /// The web app's one script. The pages work without it; with it:
    /// - moving between pages swaps `<main>` (fetch, the history API), so the one `<audio>` of the layout plays on;
    /// - the player: a mini player on every page and a big one (seek and speed only for recordings and episodes,
    ///   shuffle and repeat, a sleep timer, chapters, like and hide, the queue), the queue and positions kept by the
    ///   daemon (`/player/queue`) so another browser resumes there;
    /// - the phone's own controls (Media Session), live titles from the event stream, a question before a form
    ///   marked `data-confirm`, and the service worker of the page shell.
    /// Text from the box is only ever set as text.
    static let script = #"""
    "use strict";
    (function () {
      var audio = document.getElementById("onair-audio");
      var $ = function (id) { return document.getElementById(id); };
      var state = { items: [], index: -1, shuffle: false, repeat: "off", pendingStart: 0, sleepTimer: null, sleepAtEnd: false, lastSaved: 0 };
      var skipped = /^\/(api|live|feeds|rest|assets|artwork|player|login|logout|metrics)(\/|$)/;

      function csrf() {
        var meta = document.querySelector('meta[name="onair-csrf"]');
        return meta ? meta.getAttribute("content") : "";
      }
      function clock(seconds) {
        if (!isFinite(seconds) || seconds < 0) seconds = 0;
        var s = Math.floor(seconds % 60), m = Math.floor(seconds / 60) % 60, h = Math.floor(seconds / 3600);
        var two = function (n) { return (n < 10 ? "0" : "") + n; };
        return h > 0 ? h + ":" + two(m) + ":" + two(s) : m + ":" + two(s);
      }
      function say(text) { var status = $("player-status"); if (status) status.textContent = text; }
      function current() { return state.items[state.index] || null; }

      // ---- The daemon's memory of the queue -------------------------------------------------------------
      // One save at a time, in order: the last one sent is the one kept.
      var saving = Promise.resolve();
      function position() { return audio.getAttribute("src") ? audio.currentTime : state.pendingStart; }
      function save(options) {
        options = options || {};
        var entry = current();
        var queue = { items: state.items.map(function (item) { return item.ref; }), current: entry ? entry.ref : null,
                      seconds: entry && !entry.live ? position() : 0, heard: !!options.heard };
        if (options.left) { queue.left = options.left.ref; queue.leftSeconds = options.left.seconds; }
        var body = JSON.stringify(queue);
        state.lastSaved = Date.now();
        var send = function () {
          return fetch("/player/queue", { method: "PUT", body: body, credentials: "same-origin", keepalive: !!options.leaving,
                                          headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf() } })
            .catch(function () { /* the box is away: the next save carries the same */ });
        };
        saving = options.leaving ? send() : saving.then(send);
        return saving;
      }
      function entries(ref) {
        return fetch("/player/entries?ref=" + encodeURIComponent(ref), { credentials: "same-origin" }).then(function (response) {
          if (!response.ok) throw new Error("nothing to play");
          return response.json();
        });
      }

      // ---- Playing ----------------------------------------------------------------------------------------
      function load(index, startAt, autoplay) {
        var before = current(), left = before && !before.live && audio.getAttribute("src") && !audio.ended
          ? { ref: before.ref, seconds: audio.currentTime } : null;
        if (audio.getAttribute("src")) { audio.pause(); audio.removeAttribute("src"); audio.load(); }
        state.index = index;
        var entry = current();
        if (!entry) { render(); if (left) save({ left: left }); return; }
        state.pendingStart = entry.live ? 0 : (startAt || 0);
        describe(entry);
        if (autoplay) start(left); else { render(); if (left) save({ left: left }); }
      }
      function start(left) {
        var entry = current();
        if (!entry) return;
        if (!audio.getAttribute("src")) {
          audio.src = entry.audio;
          audio.playbackRate = entry.live ? 1 : parseFloat($("big-speed").value || "1");
          if (state.pendingStart > 0) {
            var at = state.pendingStart;
            audio.addEventListener("loadedmetadata", function seek() { audio.currentTime = at; }, { once: true });
          }
        }
        var playing = audio.play();
        if (playing && playing.catch) playing.catch(function (error) { say("The browser would not play: " + error.message); });
        render();
        save({ left: left && left.ref ? left : null });
      }
      function toggle() {
        if (!current()) return;
        if (audio.paused) start(); else audio.pause();
      }
      function playList(list, startIndex, startAt) {
        if (!list.length) { say("Nothing to play."); return; }
        state.items = list;
        load(startIndex || 0, startAt || (list[startIndex || 0].resume || 0), true);
      }
      function play(ref, startAt) {
        return entries(ref).then(function (found) { playList(found.items, 0, startAt); say("Playing " + found.name + "."); })
          .catch(function () { say("That cannot be played."); });
      }
      function enqueue(ref) {
        return entries(ref).then(function (found) {
          var known = state.items.map(function (item) { return item.ref; });
          found.items.forEach(function (item) { if (known.indexOf(item.ref) < 0) state.items.push(item); });
          if (state.index < 0 && state.items.length) load(0, state.items[0].resume || 0, false);
          renderQueue(); save();
          say("Added " + found.items.length + (found.items.length === 1 ? " item" : " items") + " to the queue.");
        }).catch(function () { say("That cannot be queued."); });
      }
      function next(automatic) {
        if (!state.items.length) return;
        if (automatic && state.repeat === "one") { load(state.index, 0, true); return; }
        var index = state.index + 1;
        if (state.shuffle && state.items.length > 1) {
          do { index = Math.floor(Math.random() * state.items.length); } while (index === state.index);
        }
        if (index >= state.items.length) {
          if (state.repeat !== "all") { audio.pause(); render(); save(); return; }
          index = 0;
        }
        load(index, 0, true);
      }
      function previous() {
        var entry = current();
        if (entry && !entry.live && audio.currentTime > 5) { audio.currentTime = 0; return; }
        if (state.index > 0) load(state.index - 1, 0, true);
      }
      function seekBy(seconds) {
        var entry = current();
        if (!entry || entry.live || !audio.getAttribute("src")) return;
        audio.currentTime = Math.max(0, Math.min(audio.currentTime + seconds, (audio.duration || Infinity)));
      }
      function seekTo(seconds) {
        var entry = current();
        if (!entry || entry.live) return;
        if (!audio.getAttribute("src")) { state.pendingStart = seconds; start(); return; }
        audio.currentTime = seconds;
        if (audio.paused) start();
      }
      function sleepAfter(seconds) {
        clearTimeout(state.sleepTimer);
        state.sleepTimer = null; state.sleepAtEnd = false;
        if (seconds === "end") { state.sleepAtEnd = true; say("The player stops at the end of this episode."); return; }
        if (!seconds) { say("Sleep timer off."); return; }
        state.sleepTimer = setTimeout(function () {
          audio.pause(); state.sleepTimer = null; $("big-sleep").value = ""; say("Sleep timer: the player stopped.");
        }, seconds * 1000);
        say("The player stops in " + Math.round(seconds / 60) + " min.");
      }
      function mark(which) {
        var entry = current();
        if (!entry) return Promise.resolve();
        var body = new URLSearchParams({ csrf: csrf(), item: entry.ref, mark: which, back: "/" });
        return fetch("/library/marks", { method: "POST", body: body, credentials: "same-origin" }).then(function () {
          if (which === "like" || which === "unlike") { entry.liked = which === "like"; render(); say(which === "like" ? "Liked." : "Unliked."); return; }
          // Hidden: out of the queue and of the page's lists at once.
          var ref = entry.ref;
          document.querySelectorAll('[data-play="' + CSS.escape(ref) + '"]').forEach(function (button) {
            var card = button.closest("li"); if (card) card.remove();
          });
          state.items.splice(state.index, 1);
          if (state.index >= state.items.length) state.index = state.items.length - 1;
          if (state.items.length && !audio.paused) load(state.index, 0, true); else load(state.index, 0, false);
          save(); say("Hidden: it left your lists and the queue.");
        });
      }

      // ---- What the player shows ---------------------------------------------------------------------------
      function render() {
        var entry = current();
        $("mini-player").hidden = !entry;
        document.body.classList.toggle("has-player", !!entry);
        if (!entry) { $("big-player").hidden = true; return; }
        var live = entry.live, line = live ? (entry.nowPlaying || "Live") : entry.subtitle;
        $("mini-title").textContent = entry.title;
        $("mini-subtitle").textContent = !audio.getAttribute("src") && state.pendingStart > 0 ? "Left at " + clock(state.pendingStart) : line;
        $("mini-art").src = entry.artwork; $("big-art").src = entry.artwork;
        $("big-title").textContent = entry.title;
        $("big-subtitle").textContent = entry.subtitle;
        $("big-live").textContent = live ? (entry.nowPlaying || "") : "";
        $("big-page").href = entry.page;
        var label = audio.paused ? "Play" : "Pause";
        [$("mini-toggle"), $("big-toggle")].forEach(function (button) {
          button.setAttribute("aria-label", label + " " + entry.title); button.textContent = audio.paused ? "▶" : "❚❚";
        });
        document.querySelectorAll("[data-on-demand]").forEach(function (control) { control.hidden = live; });
        $("big-like").setAttribute("aria-pressed", entry.liked ? "true" : "false");
        $("big-like").textContent = entry.liked ? "Liked" : "Like";
        $("big-sleep-end").disabled = live;
        renderChapters(entry); renderQueue(); progress();
      }
      function progress() {
        var entry = current();
        if (!entry || entry.live) { $("mini-bar").style.width = "0"; return; }
        var at = position();
        var length = audio.duration && isFinite(audio.duration) ? audio.duration : (entry.duration || 0);
        $("big-at").textContent = clock(at);
        $("big-length").textContent = clock(length);
        var seek = $("big-seek");
        seek.max = String(Math.max(1, Math.floor(length))); seek.value = String(Math.floor(at));
        seek.setAttribute("aria-valuetext", clock(at) + " of " + clock(length));
        $("mini-bar").style.width = length > 0 ? Math.min(100, 100 * at / length) + "%" : "0";
      }
      function renderChapters(entry) {
        var list = $("big-chapters");
        list.textContent = "";
        (entry.chapters || []).forEach(function (chapter) {
          var item = document.createElement("li"), button = document.createElement("button");
          button.type = "button"; button.className = "quiet";
          button.textContent = clock(chapter.start) + " " + chapter.title;
          button.addEventListener("click", function () { seekTo(chapter.start); });
          item.appendChild(button); list.appendChild(item);
        });
        $("big-chapters-heading").hidden = !(entry.chapters || []).length;
      }
      function renderQueue() {
        var list = $("queue");
        list.textContent = "";
        state.items.forEach(function (item, index) {
          var row = document.createElement("li");
          if (index === state.index) row.setAttribute("aria-current", "true");
          var title = document.createElement("button");
          title.type = "button"; title.className = "quiet queue-title"; title.textContent = item.title;
          title.addEventListener("click", function () { load(index, item.resume || 0, true); });
          row.appendChild(title);
          [["↑", "Move up", -1], ["↓", "Move down", 1], ["✕", "Remove", 0]].forEach(function (action) {
            var button = document.createElement("button");
            button.type = "button"; button.className = "icon quiet"; button.textContent = action[0];
            button.setAttribute("aria-label", action[1] + ": " + item.title);
            button.addEventListener("click", function () { changeQueue(index, action[2]); });
            row.appendChild(button);
          });
          list.appendChild(row);
        });
      }
      function changeQueue(index, move) {
        var playing = current();
        if (move === 0) {
          state.items.splice(index, 1);
          if (index === state.index) { load(Math.min(index, state.items.length - 1), 0, !audio.paused); save(); return; }
        } else {
          var to = index + move;
          if (to < 0 || to >= state.items.length) return;
          var moved = state.items.splice(index, 1)[0];
          state.items.splice(to, 0, moved);
        }
        state.index = playing ? state.items.indexOf(playing) : -1;
        renderQueue(); save();
      }

      // ---- The phone's controls: lock screen, headset, watch ----------------------------------------------
      function describe(entry) {
        if (!("mediaSession" in navigator) || !entry) return;
        var art = new URL(entry.artwork, location.href).href;
        navigator.mediaSession.metadata = new MediaMetadata({
          title: entry.live ? (entry.nowPlaying || entry.title) : entry.title,
          artist: entry.live ? entry.title : entry.subtitle,
          album: entry.live ? "Live" : entry.subtitle,
          artwork: [{ src: art, sizes: "512x512" }]
        });
        var onDemand = !entry.live, session = navigator.mediaSession;
        var handle = function (action, handler) { try { session.setActionHandler(action, handler); } catch (ignored) { /* not offered here */ } };
        handle("play", start);
        handle("pause", function () { audio.pause(); });
        handle("stop", function () { audio.pause(); });
        handle("previoustrack", previous);
        handle("nexttrack", function () { next(false); });
        handle("seekbackward", onDemand ? function (details) { seekBy(-((details && details.seekOffset) || 15)); } : null);
        handle("seekforward", onDemand ? function (details) { seekBy((details && details.seekOffset) || 30); } : null);
        handle("seekto", onDemand ? function (details) { seekTo(details.seekTime); } : null);
      }
      function positionState() {
        var entry = current();
        if (!("mediaSession" in navigator) || !entry || entry.live || !isFinite(audio.duration)) return;
        try {
          navigator.mediaSession.setPositionState({ duration: audio.duration, playbackRate: audio.playbackRate,
                                                    position: Math.min(audio.currentTime, audio.duration) });
        } catch (ignored) { /* a duration the browser does not know yet */ }
      }

      // ---- Live titles ----------------------------------------------------------------------------------------
      function showTitle(event) {
        if (!event || event.type !== "title" || typeof event.station !== "string") return;
        document.querySelectorAll("[data-live-title]").forEach(function (element) {
          if (element.getAttribute("data-live-title") === event.station) element.textContent = event.title || "";
        });
        document.querySelectorAll("[data-live-history]").forEach(function (list) {
          if (list.getAttribute("data-live-history") !== event.station || !event.title) return;
          var item = document.createElement("li");
          item.textContent = event.title;
          list.insertBefore(item, list.firstChild);
        });
        state.items.forEach(function (item) { if (item.live && item.station === event.station) item.nowPlaying = event.title || ""; });
        var entry = current();
        if (entry && entry.live && entry.station === event.station) { render(); describe(entry); }
      }
      function listen() {
        if (!window.EventSource) return;
        var source = new EventSource("/api/v1/events");
        var read = function (message) {
          try { showTitle(JSON.parse(message.data)); } catch (ignored) { /* not an event of ours */ }
        };
        source.onmessage = read;
        source.addEventListener("title", read);
      }

      // ---- Moving between pages without stopping the audio ---------------------------------------------------
      function ownPage(url) {
        return url.origin === location.origin && !skipped.test(url.pathname);
      }
      function swap(html, url, push) {
        var page = new DOMParser().parseFromString(html, "text/html");
        var main = page.querySelector("main"), nav = page.querySelector("header nav"), token = page.querySelector('meta[name="onair-csrf"]');
        if (!main) { location.assign(url); return; }
        document.querySelector("main").replaceWith(document.adoptNode(main));
        if (nav) document.querySelector("header nav").replaceWith(document.adoptNode(nav));
        var mine = document.querySelector('meta[name="onair-csrf"]');
        if (token && mine) mine.setAttribute("content", token.getAttribute("content"));
        document.title = page.title;
        if (push) history.pushState({ onair: true }, "", url);
        enhance(main);
        var target = new URL(url, location.href).hash;
        if (target && document.getElementById(target.slice(1))) document.getElementById(target.slice(1)).scrollIntoView();
        else window.scrollTo(0, 0);
        main.focus({ preventScroll: true });
      }
      function open(url, push, init) {
        return fetch(url, Object.assign({ credentials: "same-origin", headers: { Accept: "text/html" } }, init || {})).then(function (response) {
          var type = response.headers.get("Content-Type") || "";
          var landed = new URL(response.url || url, location.href);
          if (type.indexOf("text/html") !== 0 || !ownPage(landed)) { location.assign(response.url || url); return; }
          return response.text().then(function (html) { swap(html, landed.href, push || response.redirected); });
        }).catch(function () { location.assign(url); });
      }
      function onClick(click) {
        if (click.defaultPrevented || click.button !== 0 || click.metaKey || click.ctrlKey || click.shiftKey || click.altKey) return;
        var control = click.target.closest("[data-play], [data-queue], [data-seek]");
        if (control) { click.preventDefault(); act(control); return; }
        var link = click.target.closest("a[href]");
        if (!link || link.hasAttribute("download") || link.target) return;
        var url = new URL(link.href, location.href);
        if (!ownPage(url)) return;
        if (url.pathname === location.pathname && url.search === location.search && url.hash) return;
        click.preventDefault();
        open(url.href, true);
      }
      function onSubmit(submit) {
        var form = submit.target;
        if (submit.defaultPrevented || !(form instanceof HTMLFormElement)) return;
        var action = new URL(form.getAttribute("action") || location.href, location.href);
        if (!ownPage(action)) return;
        if (form.hasAttribute("data-confirm") && !window.confirm(form.getAttribute("data-confirm"))) { submit.preventDefault(); return; }
        submit.preventDefault();
        var fields = new FormData(form);
        if (submit.submitter && submit.submitter.name) fields.append(submit.submitter.name, submit.submitter.value);
        var body = new URLSearchParams(fields);
        if ((form.getAttribute("method") || "get").toLowerCase() === "get") {
          action.search = body.toString();
          open(action.href, true);
        } else {
          open(action.href, false, { method: "POST", body: body });
        }
      }
      function act(control) {
        var seek = control.getAttribute("data-seek");
        if (seek !== null) {
          var owner = control.closest("[data-chapters-of]"), ref = owner ? owner.getAttribute("data-chapters-of") : null;
          var entry = current(), at = parseFloat(seek);
          if (entry && entry.ref === ref) seekTo(at); else if (ref) play(ref, at);
          return;
        }
        if (control.hasAttribute("data-play")) play(control.getAttribute("data-play"));
        else enqueue(control.getAttribute("data-queue"));
      }
      // The page's own players are for browsers without script: here the one player plays.
      function enhance(root) {
        root.querySelectorAll("audio[data-ref]").forEach(function (element) {
          element.pause(); element.removeAttribute("src"); element.hidden = true;
          element.querySelectorAll("source").forEach(function (source) { source.remove(); });
        });
        root.querySelectorAll(".play-actions").forEach(function (actions) { actions.hidden = false; });
      }

      // ---- Wiring ----------------------------------------------------------------------------------------------
      function openBig() { $("big-player").hidden = false; document.body.classList.add("big-open"); $("big-close").focus(); }
      function closeBig() { $("big-player").hidden = true; document.body.classList.remove("big-open"); $("mini-open").focus(); }
      function wire() {
        $("mini-toggle").addEventListener("click", toggle);
        $("big-toggle").addEventListener("click", toggle);
        $("mini-open").addEventListener("click", openBig);
        $("big-close").addEventListener("click", closeBig);
        $("big-player").addEventListener("keydown", function (key) { if (key.key === "Escape") closeBig(); });
        $("big-back").addEventListener("click", function () { seekBy(-15); });
        $("big-forward").addEventListener("click", function () { seekBy(30); });
        $("big-next").addEventListener("click", function () { next(false); });
        $("big-previous").addEventListener("click", previous);
        $("big-seek").addEventListener("change", function () { seekTo(parseFloat($("big-seek").value)); });
        $("big-speed").addEventListener("change", function () {
          var entry = current();
          if (entry && !entry.live) audio.playbackRate = parseFloat($("big-speed").value);
        });
        $("big-shuffle").addEventListener("click", function () {
          state.shuffle = !state.shuffle; $("big-shuffle").setAttribute("aria-pressed", state.shuffle ? "true" : "false");
        });
        $("big-repeat").addEventListener("click", function () {
          state.repeat = { off: "all", all: "one", one: "off" }[state.repeat];
          $("big-repeat").textContent = "Repeat: " + state.repeat;
          $("big-repeat").setAttribute("aria-pressed", state.repeat === "off" ? "false" : "true");
        });
        $("big-sleep").addEventListener("change", function () {
          var value = $("big-sleep").value;
          sleepAfter(value === "end" ? "end" : parseFloat(value || "0"));
        });
        $("big-like").addEventListener("click", function () { mark(current() && current().liked ? "unlike" : "like"); });
        $("big-hide").addEventListener("click", function () { mark("hide"); });
        audio.addEventListener("play", render);
        audio.addEventListener("pause", function () {
          var entry = current();
          render();
          if (!entry || !audio.getAttribute("src")) return;
          // A live station paused lets go of its stream (the box's listener slot too); Play joins it live again.
          if (entry.live) { audio.removeAttribute("src"); audio.load(); }
          save();
        });
        audio.addEventListener("ratechange", positionState);
        audio.addEventListener("loadedmetadata", function () { progress(); positionState(); });
        audio.addEventListener("timeupdate", function () {
          progress();
          if (Date.now() - state.lastSaved > 10000 && !audio.paused) { save(); positionState(); }
        });
        audio.addEventListener("ended", function () {
          save({ heard: true });
          if (state.sleepAtEnd) { state.sleepAtEnd = false; $("big-sleep").value = ""; say("Sleep: stopped at the end of the episode."); render(); return; }
          next(true);
        });
        audio.addEventListener("error", function () { if (current()) say("This cannot be played now: " + current().title + "."); });
        window.addEventListener("pagehide", function () { if (current()) save({ leaving: true }); });
        document.addEventListener("click", onClick);
        document.addEventListener("submit", onSubmit);
        window.addEventListener("popstate", function () { open(location.href, false); });
        history.replaceState({ onair: true }, "", location.href);
      }
      function resume() {
        return fetch("/player/queue", { credentials: "same-origin" }).then(function (response) { return response.ok ? response.json() : null; })
          .then(function (kept) {
            if (!kept || !kept.items.length) { render(); return; }
            state.items = kept.items;
            load(kept.current === null || kept.current === undefined ? 0 : kept.current, kept.seconds, false);
          }).catch(function () { render(); });
      }

      // What tests and the console may ask: the state, and a sleep timer in seconds.
      window.onair = {
        state: function () {
          var entry = current();
          return { ref: entry ? entry.ref : null, live: entry ? entry.live : null, paused: audio.paused,
                   seconds: position(), queue: state.items.map(function (item) { return item.ref; }),
                   title: entry ? entry.title : null };
        },
        sleepAfter: sleepAfter,
        play: play,
        enqueue: enqueue
      };

      document.addEventListener("DOMContentLoaded", function () {
        if (!audio) return;
        wire();
        enhance(document);
        listen();
        resume();
        if ("serviceWorker" in navigator) navigator.serviceWorker.register("/sw.js").catch(function () { /* no shell offline */ });
      });
    })();
    """#
}
