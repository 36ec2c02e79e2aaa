extension Assets {
    /// One column on a phone, wider cards on a laptop; nothing wider than the screen; visible focus; the light or dark
    /// theme the device asks for; the mini player fixed at the bottom, the big one over the page.
    static let style = #"""
    :root { color-scheme: light dark; --ink: #1b1d21; --muted: #5b6170; --line: #d9dce3; --accent: #0b57d0; --on-accent: #fff; --bad: #b3261e;
            --paper: #fff; --soft: #f3f5f9; --good-soft: #e6f4ea; --bad-soft: #fce8e6; --chapter: #7a4fb5; }
    @media (prefers-color-scheme: dark) {
      :root { --ink: #e6e8ee; --muted: #aab0bd; --line: #3a3f4a; --accent: #8ab4f8; --on-accent: #0b1e3f; --bad: #f2b8b5;
              --paper: #121417; --soft: #1d2026; --good-soft: #173a22; --bad-soft: #46201d; --chapter: #cfbcff; }
    }
    * { box-sizing: border-box; }
    html { -webkit-text-size-adjust: 100%; background: var(--paper); }
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
    .notice { background: var(--good-soft); }
    .error { background: var(--bad-soft); color: var(--bad); }
    .meta, .reason { color: var(--muted); }
    .failed .status, .failed .reason { color: var(--bad); }
    /* minmax(0, …): a card's one-line text is cut with an ellipsis, never widens the column past the screen. */
    .cards { list-style: none; padding: 0; margin: 0; display: grid; grid-template-columns: minmax(0, 1fr); gap: 8px; }
    .visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
    .timeline { margin: 0 0 12px; }
    .timeline figcaption { font-weight: 600; }
    .lane { list-style: none; position: relative; height: 24px; margin: 4px 0 0; padding: 0; background: var(--soft);
            border: 1px solid var(--line); border-radius: 4px; }
    .mark { position: absolute; top: 2px; bottom: 2px; border-radius: 2px; background: var(--accent); }
    .mark.ad { background: var(--bad); }
    .mark.jingle, .mark.id { background: var(--chapter); }
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
    button, .button { background: var(--accent); color: var(--on-accent); border-color: var(--accent); cursor: pointer; text-decoration: none;
                      display: inline-block; }
    input, select { background: var(--paper); color: var(--ink); }
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
    [hidden] { display: none !important; }
    .find { margin: 0; display: flex; align-items: center; gap: 6px; }
    .find label { font-weight: 400; }
    .find input { width: 9rem; padding: 6px 8px; }
    main:focus { outline: none; }
    .shelf { margin-bottom: 8px; }
    .shelf-head { display: flex; flex-wrap: wrap; align-items: baseline; gap: 4px 12px; }
    .shelf-head h2 { margin-right: auto; }
    .shelf-head button { padding: 4px 10px; }
    .cards li.card { flex-wrap: nowrap; align-items: center; }
    .card .art { flex: none; border-radius: 6px; background: var(--soft); object-fit: cover; }
    .card .what { display: flex; flex-direction: column; min-width: 0; flex: 1; }
    .card .live { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
    .play-actions { display: inline-flex; gap: 6px; flex: none; }
    button.icon { min-width: 44px; min-height: 44px; padding: 6px; line-height: 1; }
    button.quiet { background: var(--paper); color: var(--accent); }
    .empty { color: var(--muted); }
    body.has-player { padding-bottom: 80px; }
    /* What is scrolled to, by the keyboard's focus or a link, stops above the mini player, never under it. */
    html:has(body.has-player) { scroll-padding-bottom: 96px; }
    .mini-player { position: fixed; left: 0; right: 0; bottom: 0; z-index: 5; display: flex; align-items: center; gap: 10px;
                   padding: 8px 12px; background: var(--soft); border-top: 1px solid var(--line); }
    .mini-player .art { border-radius: 6px; flex: none; }
    .mini-what { flex: 1; min-width: 0; display: flex; flex-direction: column; align-items: flex-start; text-align: left;
                 background: none; color: var(--ink); border: 0; padding: 4px; }
    .mini-what span { max-width: 100%; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
    .mini-what .title { font-weight: 600; }
    .mini-what .meta { color: var(--muted); font-size: 0.9em; }
    .mini-progress { position: absolute; left: 0; right: 0; top: 0; height: 3px; }
    #mini-bar { height: 3px; width: 0; background: var(--accent); }
    .big-player { position: fixed; inset: 0; z-index: 10; overflow-y: auto; background: var(--paper); padding: 12px 16px 32px; }
    .big-player > * { max-width: 32rem; margin-left: auto; margin-right: auto; }
    .big-head { display: flex; justify-content: space-between; align-items: center; gap: 8px; }
    .big-art { display: block; width: min(240px, 70vw); height: auto; aspect-ratio: 1; border-radius: 12px; margin-top: 12px;
               object-fit: cover; background: var(--soft); }
    .big-player h2 { margin: 12px auto 0; }
    .big-player p { margin: 4px auto; }
    .seek-row { display: flex; align-items: center; gap: 8px; margin-top: 8px; }
    .seek-row input { flex: 1; min-width: 0; padding: 0; }
    .controls { display: flex; flex-wrap: wrap; align-items: center; justify-content: center; gap: 8px; margin-top: 12px; }
    .big-toggle { min-width: 64px; min-height: 64px; font-size: 1.4em; border-radius: 50%; }
    .queue { padding-left: 1.5rem; }
    .queue li { display: flex; align-items: center; gap: 4px; }
    .queue li[aria-current] .queue-title { font-weight: 700; }
    .queue-title { flex: 1; text-align: left; min-width: 0; }
    .history { padding-left: 1.5rem; color: var(--muted); }
    body.big-open { overflow: hidden; }
    @media (min-width: 48rem) {
      .cards { grid-template-columns: repeat(2, minmax(0, 1fr)); }
      .columns { display: grid; grid-template-columns: repeat(2, minmax(0, 1fr)); gap: 0 32px; }
    }
    """#
}
