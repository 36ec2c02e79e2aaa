/// The player's markup, in the layout of every page, outside `<main>`: the one `<audio>` element, a mini player and a
/// big one. It stays hidden without script (each page then has its own `<audio>`); `/assets/app.js` fills it and keeps
/// it while pages are swapped. Controls marked `data-on-demand` (seeking, speed) are hidden for a live station.
enum Player {
    static let speeds = ["0.5", "0.75", "1", "1.25", "1.5", "1.75", "2"]

    static let template = """
    <section id="mini-player" class="mini-player" aria-label="Player" hidden>
    <div class="mini-progress" aria-hidden="true"><div id="mini-bar"></div></div>
    <img id="mini-art" class="art" alt="" width="48" height="48">
    <button type="button" id="mini-open" class="mini-what" aria-haspopup="dialog" aria-controls="big-player">
    <span id="mini-title" class="title"></span><span id="mini-subtitle" class="meta"></span><span class="visually-hidden">: open the player</span></button>
    <button type="button" id="mini-toggle" class="icon" aria-label="Play">▶</button>
    </section>
    <div id="big-player" class="big-player" role="dialog" aria-modal="true" aria-labelledby="big-title" hidden>
    <div class="big-head"><button type="button" id="big-close" class="quiet">Close the player</button>
    <a id="big-page" href="/">Open its page</a></div>
    <img id="big-art" class="big-art" alt="" width="240" height="240">
    <h2 id="big-title"></h2>
    <p id="big-subtitle" class="meta"></p>
    <p id="big-live" class="live"></p>
    <div class="seek-row" data-on-demand><span id="big-at" class="at">0:00</span>
    <input id="big-seek" type="range" min="0" max="1" step="1" value="0" aria-label="Position">
    <span id="big-length" class="at">0:00</span></div>
    <div class="controls">
    <button type="button" id="big-previous" class="icon" aria-label="Previous">|◀</button>
    <button type="button" id="big-back" class="icon" aria-label="Back 15 seconds" data-on-demand>−15</button>
    <button type="button" id="big-toggle" class="icon big-toggle" aria-label="Play">▶</button>
    <button type="button" id="big-forward" class="icon" aria-label="Forward 30 seconds" data-on-demand>+30</button>
    <button type="button" id="big-next" class="icon" aria-label="Next">▶|</button>
    </div>
    <div class="controls">
    <span data-on-demand><label for="big-speed">Speed</label>
    <select id="big-speed">\(speeds.map { #"<option value="\#($0)"\#($0 == "1" ? " selected" : "")>\#($0)×</option>"# }.joined())</select></span>
    <label for="big-sleep">Sleep</label>
    <select id="big-sleep"><option value="">Off</option><option value="900">In 15 min</option><option value="1800">In 30 min</option>
    <option value="3600">In 60 min</option><option value="end" id="big-sleep-end">At the end of the episode</option></select>
    </div>
    <div class="controls">
    <button type="button" id="big-shuffle" class="quiet" aria-pressed="false">Shuffle</button>
    <button type="button" id="big-repeat" class="quiet" aria-pressed="false">Repeat: off</button>
    <button type="button" id="big-like" class="quiet" aria-pressed="false">Like</button>
    <button type="button" id="big-hide" class="quiet">Hide</button>
    </div>
    <h3 id="big-chapters-heading" hidden>Chapters</h3>
    <ol id="big-chapters" class="chapters" aria-labelledby="big-chapters-heading"></ol>
    <h3 id="queue-heading">Queue</h3>
    <ol id="queue" class="queue" aria-labelledby="queue-heading"></ol>
    </div>
    <audio id="onair-audio" preload="none"></audio>
    <p id="player-status" class="visually-hidden" role="status" aria-live="polite"></p>
    """
}
