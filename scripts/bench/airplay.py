#!/usr/bin/env python3
"""Known-clip (airplay) detection: onair beside fpcalc matching and audfprint2, on the same stations.

Test set (built once under --work, 5.2 GB, mostly the 1,000 WAV slices; reused while TESTSET_VERSION is unchanged):
- music: Debian's wesnoth-1.16-music, the tracks of at least 150 s, dealt in turn (shortest first) to three
  piles: song sources (the song clips are cut from them), filler (the stations' music between airings) and
  other music (never in a clip; the false-match audio);
- spots (kind ad): ad copy spoken by espeak-ng at several voices and speeds over a quiet sine bed (ffmpeg),
  10-14 s; songs (kind song): excerpts of 20-55 s of the song sources;
- stations: the filler tracks back to back with every clip spliced in twice at random points (a hard cut,
  as stations do; the seconds are written down), in three variants: MP3 128 kbit/s; MP3 64 kbit/s after a
  -6 dB change; AAC (ADTS) 64 kbit/s. The other music is encoded the same three ways.
- 1,000 clips for the memory figure: 30-s slices of the song sources and the filler, every 3 s.

The tools:
- onair: `onair clips add` for each clip (its own ONAIR_HOME per run), then `onair monitor URL… --duration
  SECONDS --json`, the stations served by a small HTTP server on 127.0.0.1 as fast as onair reads them (not in
  real time: 100 station-hours at real time would take days); airings are its `clip-matched` lines, the start
  is their `mediaTime`.
- fpcalc: what is done with Chromaprint's command-line tool today: `fpcalc -raw -length 0` of each clip and of
  the whole station file, then, for each clip, the share of differing bits (popcount of XOR of the 32-bit
  items) at every item offset of the station over the clip's length; an offset whose share is below
  FPCALC_THRESHOLD and lowest within half a clip is an airing starting at offset x 1365/11025 s. The threshold
  (0.25) was chosen on a trial run: true airings stayed under 0.1, every clip above 0.36 on the other music (and
  one spot reached 0.345 over another spot); each run prints both edges, so the margin can be read. The search
  runs in a child process (this script, `fpcalc-match`), so its CPU and memory are counted with fpcalc's.
- audfprint2 (PyPI, in a venv: --audfprint-venv): a database of the clips built with `audfprint new`, and
  the station matched through its Python API (this script, `audfprint-match`, run by the venv's python): the
  landmark hashes of the whole station, matched in 90-s windows every 30 s (audfprint reports one alignment
  per reference for a query, so a whole station file would find each clip once at most), with its Matcher's
  defaults (at least 5 aligned hashes); reports of one clip less than 2 s apart are one airing.

Figures: recall of the spliced airings (a report of the same clip starting less than half its length from
the truth), by variant; |reported start - truth| in stream seconds; reports on the other music per
station-hour (any report there is false; reports in the stations matching no airing are counted too); CPU
(user+sys of each tool's process tree, from wait4) per station-hour; peak RSS with 1,000 clips minus with 1.

Usage: scripts/bench/airplay.py --onair .build/release/onair [--false-copies 48] [--work /tmp/onair-bench-airplay]
       [--report-only]
"""
import argparse, array, json, os, random, shutil, statistics, subprocess, sys, tempfile, threading, time, wave
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

TESTSET_VERSION = 1
MUSIC = "/usr/share/games/wesnoth/1.16/data/core/music"
RATE = 44100
FRAME = 4  # s16le stereo
ITEM_SECONDS = 1365 / 11025  # Chromaprint's default algorithm: one item per 1365 samples at 11,025 Hz
FPCALC_THRESHOLD = 0.25
VARIANTS = {  # name: (extension, ffmpeg output options)
    "mp3-128k": ("mp3", ["-c:a", "libmp3lame", "-b:a", "128k", "-f", "mp3"]),
    "mp3-64k-6dB": ("mp3", ["-af", "volume=-6dB", "-c:a", "libmp3lame", "-b:a", "64k", "-f", "mp3"]),
    "aac-64k": ("aac", ["-c:a", "aac", "-b:a", "64k", "-f", "adts"]),
}
SPOTS = [  # voice, words per minute, sine bed Hz, copy
    ("en-us", 165, 220, "Summer sale at Harbour Furniture! Every sofa, every table, every lamp is thirty percent off this weekend only. "
                        "Free delivery on orders over two hundred. Harbour Furniture, on Mill Road, open till eight."),
    ("en-gb", 175, 247, "Feeling the cold? Northgate Heating services boilers the same day you call. No call-out fee before "
                        "Christmas, and a five year guarantee on every repair. Northgate Heating, the warm choice."),
    ("en-gb-x-rp", 150, 262, "This programme is brought to you by Castle Bank. Savings accounts paying four percent, no fees, "
                             "no fuss. Castle Bank, banking the way it used to be. Terms and conditions apply."),
    ("en-us+f3", 185, 294, "Hungry tonight? Luigi's Pizza delivers hot, fresh, stone baked pizza to your door in thirty minutes "
                           "or it's free. Order online with the code radio for a free garlic bread. Luigi's!"),
    ("en-gb-scotland", 160, 330, "The Highland Games return to Braemar on the first Saturday of September. Pipe bands, the caber "
                                 "toss, and the finest ceilidh in the north. Tickets on sale now from ten pounds."),
    ("en-us+m3", 170, 349, "Bright Smile Dental is now taking new patients. Evening and weekend appointments, gentle care for "
                           "nervous patients, and a free check-up for children. Call Bright Smile today."),
    ("en-029", 155, 392, "Sunshine Travel has flights to the islands from ninety nine pounds. Two weeks of sun, sea and sand, "
                         "with the hotel and transfers included. Book by Friday at Sunshine Travel dot com."),
    ("en-us+f2", 180, 440, "Don't miss the Riverside Motor Show, this Sunday at the county showground. Classic cars, electric "
                           "cars, and test drives all day. Children go free. The Riverside Motor Show, be there!"),
]


def log(message):
    print(f"airplay: {message}", file=sys.stderr, flush=True)


def run(command, **kwargs):
    return subprocess.run(command, check=True, **kwargs)


def decode(path):
    """The file as s16le stereo at 44.1 kHz."""
    return run(["ffmpeg", "-v", "error", "-i", path, "-f", "s16le", "-ac", "2", "-ar", str(RATE), "-"], capture_output=True).stdout


def write_wav(path, pcm):
    with wave.open(path, "wb") as out:
        out.setnchannels(2)
        out.setsampwidth(2)
        out.setframerate(RATE)
        out.writeframes(pcm)


def encode(raw, path, options):
    run(["ffmpeg", "-v", "error", "-y", "-f", "s16le", "-ac", "2", "-ar", str(RATE), "-i", raw, *options, path])


def duration(path):
    return float(run(["ffprobe", "-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", path],
                     capture_output=True, text=True).stdout)


# MARK: the test set

def build_testset(work):
    """Clips, stations and other music under `work`; returns the manifest (also kept as manifest.json)."""
    manifest_path = os.path.join(work, "manifest.json")
    if os.path.exists(manifest_path):
        manifest = json.load(open(manifest_path))
        if manifest.get("version") == TESTSET_VERSION:
            return manifest
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(os.path.join(work, "clips"))
    os.makedirs(os.path.join(work, "library"))
    started = time.time()
    tracks = sorted((duration(os.path.join(MUSIC, name)), name) for name in os.listdir(MUSIC) if name.endswith(".ogg"))
    tracks = [name for seconds, name in tracks if seconds >= 150]
    sources, filler, other = tracks[0::3], tracks[1::3], tracks[2::3]
    pcm = {name: decode(os.path.join(MUSIC, name)) for name in tracks}
    rng = random.Random(7)
    clips = []
    for number, (voice, speed, bed, copy) in enumerate(SPOTS):
        speech = os.path.join(work, f"speech{number}.wav")
        run(["espeak-ng", "-v", voice, "-s", str(speed), "-w", speech, copy])
        path = os.path.join(work, "clips", f"spot{number + 1}.wav")
        # The bed 24 dB under the voice, as long as the voice; a short fade so the splice does not click.
        run(["ffmpeg", "-v", "error", "-y", "-i", speech, "-f", "lavfi", "-i", f"sine=frequency={bed}:sample_rate={RATE}",
             "-filter_complex", "[1]volume=-24dB[bed];[0]aresample=44100[voice];[voice][bed]amix=inputs=2:duration=first:normalize=0,"
             "afade=t=in:d=0.05,areverse,afade=t=in:d=0.05,areverse", "-ac", "2", "-ar", str(RATE), path])
        clips.append({"name": f"Spot {number + 1}", "kind": "ad", "file": path, "seconds": duration(path)})
    for number, name in enumerate(sources[:8]):
        start, length = 20 + 7 * number, 20 + 5 * number
        path = os.path.join(work, "clips", f"song{number + 1}.wav")
        write_wav(path, pcm[name][start * RATE * FRAME:(start + length) * RATE * FRAME])
        clips.append({"name": f"Song {number + 1}", "kind": "song", "file": path, "seconds": float(length), "source": name})
    for clip in clips:
        with wave.open(clip["file"]) as source:
            assert (source.getnchannels(), source.getsampwidth(), source.getframerate()) == (2, 2, RATE), clip["file"]
            clip["pcm"] = source.readframes(source.getnframes())
    # The station: the filler back to back, every clip twice at random points at least 45 s of music apart.
    music = b"".join(pcm[name] for name in filler)
    music_frames = len(music) // FRAME
    plays = [clip for clip in clips for _ in range(2)]
    rng.shuffle(plays)
    # Gaps of 45 s plus a random share of the music left over, so the cuts fall anywhere in a track.
    slack = music_frames - (len(plays) + 1) * 45 * RATE
    weights = [rng.random() for _ in range(len(plays) + 1)]
    cuts, at = [], 0
    for weight in weights[:-1]:
        at += 45 * RATE + int(slack * weight / sum(weights))
        cuts.append(at)
    station_raw = os.path.join(work, "station.raw")
    truth = []
    with open(station_raw, "wb") as out:
        written, previous = 0, 0
        for cut, clip in zip(cuts, plays):
            out.write(music[previous * FRAME:cut * FRAME])
            written += cut - previous
            truth.append({"clip": clip["name"], "start": written / RATE, "seconds": clip["seconds"]})
            out.write(clip["pcm"])
            written += len(clip["pcm"]) // FRAME
            previous = cut
        out.write(music[previous * FRAME:])
        written += music_frames - previous
    station_seconds = written / RATE
    other_raw = os.path.join(work, "other.raw")
    with open(other_raw, "wb") as out:
        for name in other:
            out.write(pcm[name])
    other_seconds = sum(len(pcm[name]) for name in other) / FRAME / RATE
    stations, others = {}, {}
    for variant, (extension, options) in VARIANTS.items():
        stations[variant] = os.path.join(work, f"station-{variant}.{extension}")
        encode(station_raw, stations[variant], options)
        others[variant] = os.path.join(work, f"other-{variant}.{extension}")
        encode(other_raw, others[variant], options)
    os.remove(station_raw)
    os.remove(other_raw)
    # 1,000 clips of 30 s for the memory figure, every 3 s of the song sources and the filler (never the other music).
    library = []
    for step in range(0, 400, 3):
        for name in sources + filler:
            if step + 30 <= len(pcm[name]) / FRAME / RATE and len(library) < 1000:
                path = os.path.join(work, "library", f"slice{len(library)}.wav")
                write_wav(path, pcm[name][step * RATE * FRAME:(step + 30) * RATE * FRAME])
                library.append({"name": f"Slice {len(library)} {name} {step}s", "kind": "song", "file": path, "seconds": 30.0})
    assert len(library) == 1000, f"only {len(library)} slices of 30 s"
    for clip in clips:
        del clip["pcm"]
    manifest = {"version": TESTSET_VERSION, "clips": clips, "truth": truth, "stations": stations, "station_seconds": station_seconds,
                "others": others, "other_seconds": other_seconds, "library": library,
                "tracks": {"sources": sources, "filler": filler, "other": other}}
    json.dump(manifest, open(manifest_path, "w"), indent=1)
    log(f"test set built in {time.time() - started:.0f} s")
    return manifest


# MARK: serving and measuring

class Server:
    """Serves files at /NAME over HTTP/1.0 as fast as they are read, then closes; counts the requests."""

    def __init__(self):
        self.files, self.requests = {}, {}
        files, requests = self.files, self.requests

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):
                path = files.get(self.path)
                requests[self.path] = requests.get(self.path, 0) + 1
                if path is None:
                    self.send_error(404)
                    return
                self.send_response(200)
                self.send_header("Content-Type", "audio/mpeg" if path.endswith(".mp3") else "audio/aac")
                self.send_header("icy-name", self.path.strip("/"))
                self.end_headers()
                try:
                    with open(path, "rb") as source:
                        shutil.copyfileobj(source, self.wfile, 65536)
                except (BrokenPipeError, ConnectionResetError):
                    pass

            def log_message(self, *args):
                pass

        self.http = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.http.daemon_threads = True
        self.port = self.http.server_address[1]
        threading.Thread(target=self.http.serve_forever, daemon=True).start()

    def url(self, name, path):
        self.files[f"/{name}"] = path
        return f"http://127.0.0.1:{self.port}/{name}"


def measured(command, env=None, stdout=None):
    """Runs `command`; returns (exit status, CPU seconds of it and the children it waited for, peak RSS in MB, wall seconds)."""
    started = time.time()
    process = subprocess.Popen(command, env=env, stdout=stdout, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL)
    errors = []
    reader = threading.Thread(target=lambda: errors.append(process.stderr.read()), daemon=True)
    reader.start()
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    reader.join()
    if process.returncode != 0:
        log(f"{os.path.basename(command[0])} {command[1]} exited {process.returncode}: {errors[0].decode(errors='replace')[-600:]}")
    return process.returncode, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, time.time() - started


# MARK: onair

HOMES = []  # the ONAIR_HOMEs made, removed at the end


def onair_library(onair, clips):
    home = tempfile.mkdtemp(prefix="onair-airplay-")
    HOMES.append(home)
    env = {**os.environ, "ONAIR_HOME": home}
    for clip in clips:
        run([onair, "clips", "add", clip["file"], "--name", clip["name"], "--kind", clip["kind"]], env=env,
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    return env


def onair_monitor(onair, env, urls, seconds):
    """Reports (station, clip, start in stream seconds) of `onair monitor URL… --json`, with its CPU and peak RSS."""
    with tempfile.TemporaryFile() as out:
        status, cpu, rss, wall = measured([onair, "monitor", *urls, "--duration", str(int(seconds) + 2), "--json"], env=env, stdout=out)
        out.seek(0)
        reports = []
        for line in out.read().decode().splitlines():
            try:
                event = json.loads(line)
            except ValueError:
                continue
            if event.get("event") == "clip-matched":
                reports.append((event.get("station"), event["clip"], float(event["mediaTime"]), event))
    return reports, cpu, rss, wall, status


# MARK: fpcalc

def fpcalc(path):
    # fpcalc 1.5.1 exits 3 ("Error decoding audio frame (End of file)") at the end of most files, fingerprint printed.
    output = subprocess.run(["fpcalc", "-raw", "-length", "0", path], capture_output=True, text=True).stdout
    line = next(line for line in output.splitlines() if line.startswith("FINGERPRINT="))
    return [int(value) for value in line.split("=", 1)[1].split(",") if value]


def fpcalc_match(clips_path, stream, threshold):
    """The child: fingerprint the stream, slide every clip along it; prints one JSON line per airing found, then the lowest share per clip."""
    clips = json.load(open(clips_path))
    items = fpcalc(stream)
    data = array.array("I", items).tobytes()
    lowest = {}
    for clip in clips:
        count = len(clip["items"])
        reference = int.from_bytes(array.array("I", clip["items"]).tobytes(), "little")
        bits = 32 * count
        shares = [(int.from_bytes(data[4 * at:4 * (at + count)], "little") ^ reference).bit_count() / bits
                  for at in range(len(items) - count + 1)]
        lowest[clip["name"]] = min(shares, default=1.0)
        # An airing: a share under the threshold that is the lowest within half a clip either side.
        half = max(1, count // 2)
        for at, share in enumerate(shares):
            if share < threshold and share == min(shares[max(0, at - half):at + half + 1]):
                print(json.dumps({"clip": clip["name"], "start": at * ITEM_SECONDS, "share": share}))
    print(json.dumps({"lowest": lowest}))


def fpcalc_run(clips_path, stream, threshold):
    with tempfile.TemporaryFile() as out:
        status, cpu, rss, wall = measured([sys.executable, os.path.abspath(__file__), "fpcalc-match", clips_path, stream,
                                           str(threshold)], stdout=out)
        out.seek(0)
        reports, lowest = [], {}
        for line in out.read().decode().splitlines():
            entry = json.loads(line)
            if "lowest" in entry:
                lowest = entry["lowest"]
            else:
                reports.append((None, entry["clip"], entry["start"], entry))
    return reports, cpu, rss, wall, lowest


def fpcalc_clips(clips, path):
    json.dump([{"name": clip["name"], "items": fpcalc(clip["file"])} for clip in clips], open(path, "w"))


# MARK: audfprint2

def audfprint_match(database, stream):
    """The child (the venv's python): match the stream's hashes in 90-s windows every 30 s; prints one JSON line per airing."""
    from audfprint2.core import analyzer, hash_table, matcher
    table = hash_table.HashTable(database)
    analysis = analyzer.Analyzer()
    # As `audfprint match` sets it up: 512-point FFT, hop 256 at 11,025 Hz, 4 shifts for a query.
    analysis.target_sr, analysis.n_fft, analysis.n_hop, analysis.shifts = 11025, 512, 256, 4
    matching = matcher.Matcher()
    matching.max_returns, matching.find_time_range = 20, True
    hop = analysis.n_hop / analysis.target_sr
    hashes = analysis.wavfile2hashes(stream)
    found = {}
    window, step = int(90 / hop), int(30 / hop)
    last = int(hashes[:, 0].max()) if len(hashes) else 0
    for first in range(0, max(1, last - step + 1), step):
        part = hashes[(hashes[:, 0] >= first) & (hashes[:, 0] < first + window)].copy()
        if not len(part):
            continue
        part[:, 0] -= first
        results = matching.match_hashes(table, part)
        for track, aligned, align, raw, rank, low, high in results[:matching.max_returns]:
            name = table.names[int(track)]
            start = (first - int(align)) * hop  # the query time where the reference's time 0 falls
            # Overlapping windows see one airing more than once: keep its best-supported alignment.
            near = [key for key, (count, at) in found.items() if key[0] == name and abs(at - start) <= 2]
            if all(found[key][0] < aligned for key in near):
                for key in near:
                    del found[key]
                found[(name, start)] = (int(aligned), start)
    for (name, _), (aligned, start) in found.items():
        print(json.dumps({"clip": os.path.splitext(os.path.basename(name))[0], "start": start, "aligned": aligned}))


def audfprint_database(venv, clips, path):
    listing = path + ".list"
    with open(listing, "w") as out:
        out.writelines(clip["file"] + "\n" for clip in clips)
    run([os.path.join(venv, "bin", "audfprint"), "-d", path, "-H", "2", "--list", "new", listing], stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL)


def audfprint_run(venv, database, stream, names):
    with tempfile.TemporaryFile() as out:
        status, cpu, rss, wall = measured([os.path.join(venv, "bin", "python"), os.path.abspath(__file__), "audfprint-match",
                                           database, stream], stdout=out)
        out.seek(0)
        reports = []
        for line in out.read().decode().splitlines():
            entry = json.loads(line)
            reports.append((None, names.get(entry["clip"], entry["clip"]), entry["start"], entry))
    return reports, cpu, rss, wall


# MARK: scoring

def score(reports, truth):
    """(found airings with their start errors, the reports that match no airing)."""
    errors, false = {}, []
    for report in reports:
        _, clip, start, _ = report
        best = min((airing for number, airing in enumerate(truth) if airing["clip"] == clip
                    and abs(start - airing["start"]) < airing["seconds"] / 2), key=lambda a: abs(start - a["start"]), default=None)
        if best is None:
            false.append(report)
        else:
            key = truth.index(best)
            errors[key] = min(errors.get(key, 1e9), abs(start - best["start"]))
    return errors, false


def distinct(reports):
    """One of each (variant, clip, start to the second): copies of one file served as several stations give the same reports."""
    seen = {}
    for report in reports:
        seen.setdefault((report[0], report[1], round(report[2])), report)
    return list(seen.values())


def aired(event):
    """Seconds between an onair event's start and end."""
    from datetime import datetime
    parse = lambda text: datetime.fromisoformat(text.replace("Z", "+00:00"))
    return (parse(event["end"]) - parse(event["start"])).total_seconds()


def percent(part, whole):
    return f"{part}/{whole} ({100 * part / whole:.1f} %)" if whole else "–"


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "fpcalc-match":
        return fpcalc_match(sys.argv[2], sys.argv[3], float(sys.argv[4]))
    if len(sys.argv) > 1 and sys.argv[1] == "audfprint-match":
        return audfprint_match(sys.argv[2], sys.argv[3])
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--onair", required=True)
    parser.add_argument("--work", default="/tmp/onair-bench-airplay", help="the test set, kept between runs")
    parser.add_argument("--audfprint-venv", default="/tmp/audf", help="a venv with audfprint2 (created here if missing)")
    parser.add_argument("--false-copies", type=int, default=48, help="times each other-music file is served to onair as a station")
    parser.add_argument("--memory-seconds", type=int, default=300, help="audio monitored for the memory figure")
    parser.add_argument("--report-only", action="store_true", help="print the tables of the last run again (results.json)")
    args = parser.parse_args()
    if args.report_only:
        results = json.load(open(os.path.join(args.work, "results.json")))
        return report(json.load(open(os.path.join(args.work, "manifest.json"))), results, args, results["elapsed"])
    onair = os.path.abspath(args.onair)
    missing = [tool for tool, package in (("ffmpeg", "ffmpeg"), ("fpcalc", "libchromaprint-tools"), ("espeak-ng", "espeak-ng"))
               if not shutil.which(tool)]
    if not os.path.isdir(MUSIC):
        missing.append("wesnoth-1.16-music")
    if missing:
        print(f"airplay: install the Debian packages {' '.join(missing)} (apt-get install -y ...) and run again", file=sys.stderr)
        sys.exit(1)
    if not os.path.exists(os.path.join(args.audfprint_venv, "bin", "audfprint")):
        log(f"creating {args.audfprint_venv} with audfprint2 from PyPI")
        run([sys.executable, "-m", "venv", args.audfprint_venv])
        run([os.path.join(args.audfprint_venv, "bin", "pip"), "install", "--quiet", "audfprint2"])
    began = time.time()
    manifest = build_testset(args.work)
    clips, truth = manifest["clips"], manifest["truth"]
    station_hours = manifest["station_seconds"] / 3600
    other_hours = manifest["other_seconds"] / 3600
    scratch = tempfile.mkdtemp(prefix="onair-airplay-run-")
    server = Server()
    results = {}

    # onair: one process a station (before db4e708 a URL's station was named by its host, so stations on one server
    # could not be told apart in one process's output), then the other music, each variant served --false-copies
    # times as stations at once.
    log("onair: clips and stations")
    env = onair_library(onair, clips)
    by_variant, cpu = {}, 0.0
    for variant, path in manifest["stations"].items():
        part, part_cpu, _, _, _ = onair_monitor(onair, env, [server.url(f"station-{variant}", path)], manifest["station_seconds"])
        by_variant[variant] = [r for r in part if r[2] < manifest["station_seconds"]]  # not the repeat after onair reconnects
        cpu += part_cpu
    log("onair: other music")
    false_reports, false_cpu, false_streams = [], 0.0, 0
    for variant, path in manifest["others"].items():
        urls = [server.url(f"other-{variant}-{copy}", path) for copy in range(args.false_copies)]
        false_streams += len(urls)
        for first in range(0, len(urls), 24):  # at most 24 stations a process
            part, part_cpu, _, _, _ = onair_monitor(onair, env, urls[first:first + 24], manifest["other_seconds"])
            # Not the repeat after onair reconnects at the end of the file.
            false_reports += [(variant, *r[1:]) for r in part if r[2] < manifest["other_seconds"]]
            false_cpu += part_cpu
    results["onair"] = {"stations": by_variant, "cpu": cpu + false_cpu, "hours": 3 * station_hours + false_streams * other_hours,
                        "false": false_reports, "false_hours": false_streams * other_hours}
    log("onair: memory with 1 and with 1,000 clips")
    one = onair_library(onair, manifest["library"][:1])
    memory_url = server.url("memory", manifest["others"]["mp3-128k"])
    _, _, rss_one, _, _ = onair_monitor(onair, one, [memory_url], args.memory_seconds)
    thousand = onair_library(onair, manifest["library"])
    big_reports, big_cpu, rss_thousand, _, _ = onair_monitor(onair, thousand, [memory_url], args.memory_seconds)
    results["onair"].update(rss_one=rss_one, rss_thousand=rss_thousand, big_false=len(big_reports), big_cpu=big_cpu)

    # fpcalc: the same files, read directly.
    log("fpcalc")
    clips_path = os.path.join(scratch, "fpcalc-clips.json")
    fpcalc_clips(clips, clips_path)
    fp = {"stations": {}, "cpu": 0.0, "hours": 0.0, "false": [], "lowest_true": 0.0, "lowest_other": 1.0}
    for variant, path in manifest["stations"].items():
        reports, cpu, _, _, _ = fpcalc_run(clips_path, path, FPCALC_THRESHOLD)
        fp["stations"][variant] = reports
        fp["cpu"] += cpu
        fp["hours"] += station_hours
        fp["lowest_true"] = max([fp["lowest_true"]] + [r[3]["share"] for r in reports])
    for variant, path in manifest["others"].items():
        reports, cpu, _, _, lowest = fpcalc_run(clips_path, path, FPCALC_THRESHOLD)
        fp["false"] += [(variant, *r[1:]) for r in reports]
        fp["cpu"] += cpu
        fp["hours"] += other_hours
        fp["lowest_other"] = min([fp["lowest_other"]] + list(lowest.values()))
    fp["false_hours"] = 3 * other_hours
    memory_clip = os.path.join(scratch, "memory.mp3")
    run(["ffmpeg", "-v", "error", "-y", "-i", manifest["others"]["mp3-128k"], "-t", str(args.memory_seconds), "-c", "copy", memory_clip])
    fpcalc_clips(manifest["library"][:1], os.path.join(scratch, "one.json"))
    fpcalc_clips(manifest["library"], os.path.join(scratch, "thousand.json"))
    _, _, fp["rss_one"], _, _ = fpcalc_run(os.path.join(scratch, "one.json"), memory_clip, FPCALC_THRESHOLD)
    big, fp["big_cpu"], fp["rss_thousand"], _, _ = fpcalc_run(os.path.join(scratch, "thousand.json"), memory_clip, FPCALC_THRESHOLD)
    fp["big_false"] = len(big)
    results["fpcalc"] = fp

    # audfprint2: its database of the clips, the same files.
    log("audfprint2")
    names = {os.path.splitext(os.path.basename(clip["file"]))[0]: clip["name"] for clip in clips}
    database = os.path.join(scratch, "clips.pklz")
    audfprint_database(args.audfprint_venv, clips, database)
    af = {"stations": {}, "cpu": 0.0, "hours": 0.0, "false": []}
    for variant, path in manifest["stations"].items():
        reports, cpu, _, _ = audfprint_run(args.audfprint_venv, database, path, names)
        af["stations"][variant] = reports
        af["cpu"] += cpu
        af["hours"] += station_hours
    for variant, path in manifest["others"].items():
        reports, cpu, _, _ = audfprint_run(args.audfprint_venv, database, path, names)
        af["false"] += [(variant, *r[1:]) for r in reports]
        af["cpu"] += cpu
        af["hours"] += other_hours
    af["false_hours"] = 3 * other_hours
    audfprint_database(args.audfprint_venv, manifest["library"][:1], os.path.join(scratch, "one.pklz"))
    audfprint_database(args.audfprint_venv, manifest["library"], os.path.join(scratch, "thousand.pklz"))
    venv_python = os.path.join(args.audfprint_venv, "bin", "python")
    af["rss_one"] = measured([venv_python, os.path.abspath(__file__), "audfprint-match", os.path.join(scratch, "one.pklz"), memory_clip],
                             stdout=subprocess.DEVNULL)[2]
    with tempfile.TemporaryFile() as out:
        _, af["big_cpu"], af["rss_thousand"], _ = measured([venv_python, os.path.abspath(__file__), "audfprint-match",
                                                           os.path.join(scratch, "thousand.pklz"), memory_clip], stdout=out)
        out.seek(0)
        af["big_false"] = len(out.read().splitlines())
    results["audfprint2"] = af
    shutil.rmtree(scratch, ignore_errors=True)
    for home in HOMES:
        shutil.rmtree(home, ignore_errors=True)
    results["elapsed"] = time.time() - began
    json.dump(results, open(os.path.join(args.work, "results.json"), "w"))
    report(manifest, results, args, results["elapsed"])


def report(manifest, results, args, elapsed):
    truth = manifest["truth"]
    tools = ["onair", "fpcalc", "audfprint2"]
    table = {}
    for tool in tools:
        r = results[tool]
        found, station_false, all_errors = {}, [], []
        for variant in VARIANTS:
            errors, false = score(r["stations"].get(variant, []), truth)
            found[variant] = len(errors)
            station_false += [(variant, *f[1:]) for f in false]
            all_errors += errors.values()
        table[tool] = (found, station_false, all_errors)
    airings = len(truth)
    print("## Known-clip (airplay) detection: onair beside fpcalc matching and audfprint2\n")
    spots = [c for c in manifest["clips"] if c["kind"] == "ad"]
    songs = [c for c in manifest["clips"] if c["kind"] == "song"]
    print(f"{len(spots)} spots (espeak-ng ad copy over a quiet sine bed, {min(c['seconds'] for c in spots):.1f}–"
          f"{max(c['seconds'] for c in spots):.1f} s) and {len(songs)} song excerpts ({min(c['seconds'] for c in songs):.0f}–"
          f"{max(c['seconds'] for c in songs):.0f} s) of Debian's wesnoth-1.16-music, each spliced twice into "
          f"{manifest['station_seconds'] / 60:.1f} minutes of other wesnoth tracks: {airings} airings a station, the same in "
          f"three variants (MP3 128 kbit/s; MP3 64 kbit/s after −6 dB; AAC/ADTS 64 kbit/s). False matches: "
          f"{manifest['other_seconds'] / 60:.1f} minutes of wesnoth tracks in no clip, in the same three variants. onair read each "
          "file from an HTTP server on 127.0.0.1 serving it as fast as it was read (not in real time, and not through Icecast); "
          "fpcalc and audfprint2 read the same files. CPU is user+sys of each tool's process tree over the station-hours it "
          "decoded; memory is the peak RSS of the monitoring process with 1,000 clips (30-s slices) minus with 1, "
          f"monitoring {args.memory_seconds} s of the other music.\n")
    print("| | " + " | ".join(tools) + " | goal |")
    print("|---|" + "---:|" * len(tools) + "---|")
    row = lambda label, cells, goal="": print(f"| {label} | " + " | ".join(cells) + f" | {goal} |")
    row("airings found (≥ 10 s)", [percent(sum(table[t][0].values()), 3 * airings) for t in tools], "≥ 99 %")
    for variant in VARIANTS:
        row(f"… {variant}", [percent(table[t][0][variant], airings) for t in tools])
    row("start error, median", [f"{statistics.median(table[t][2]):.2f} s" if table[t][2] else "–" for t in tools], "within ±0.5 s")
    row("start error, max", [f"{max(table[t][2]):.2f} s" if table[t][2] else "–" for t in tools], "within ±0.5 s")
    row("false matches on other music", [f"{len(results[t]['false'])} in {results[t]['false_hours']:.1f} station-h" for t in tools],
        "0 in 100 station-h")
    row("… per station-hour", [f"{len(results[t]['false']) / results[t]['false_hours']:.2f}" for t in tools])
    row(f"… distinct (in the {3 * manifest['other_seconds'] / 3600:.1f} h of distinct audio)",
        [str(len(distinct(results[t]["false"]))) for t in tools])
    row("reports in the stations matching no airing", [str(len(table[t][1])) for t in tools])
    row("CPU per station-hour", [f"{results[t]['cpu'] / results[t]['hours']:.1f} s" for t in tools], "≤ 18 s (200 stations a core)")
    row("peak RSS, 1 clip", [f"{results[t]['rss_one']:.0f} MB" for t in tools])
    row("memory per 1,000 clips", [f"{results[t]['rss_thousand'] - results[t]['rss_one']:+.0f} MB" for t in tools])
    row(f"false matches with 1,000 clips ({args.memory_seconds} s of other music)", [str(results[t]["big_false"]) for t in tools])
    row(f"CPU per station-hour with 1,000 clips (the same {args.memory_seconds} s, start-up included)",
        [f"{results[t]['big_cpu'] * 3600 / args.memory_seconds:.1f} s" for t in tools])
    o = results["onair"]
    onair_found = sum(table["onair"][0].values())
    errors = table["onair"][2]
    cpu_hour = o["cpu"] / o["hours"]
    print()
    print(f"onair decoded {o['hours']:.1f} station-hours: the three stations ({3 * manifest['station_seconds'] / 3600:.1f} h) and the "
          f"other music served {args.false_copies} times in each variant as {3 * args.false_copies} stations, 24 at once in one process "
          f"({o['false_hours']:.1f} station-hours, of which {3 * manifest['other_seconds'] / 3600:.1f} hours are distinct audio: copies "
          "of one file decode to the same PCM). fpcalc and audfprint2, which read files and give the same answer for the same "
          f"file, ran each file once. The fpcalc threshold ({FPCALC_THRESHOLD}) against the shares it saw: highest share of a "
          f"reported airing {results['fpcalc']['lowest_true']:.3f}, lowest share of any clip anywhere on the other music "
          f"{results['fpcalc']['lowest_other']:.3f}. The whole run took {elapsed / 60:.1f} minutes.\n")
    goals = [
        ("≥ 99 % of airings of ≥ 10 s found", onair_found >= 0.99 * 3 * airings, percent(onair_found, 3 * airings)),
        ("0 false matches in 100 station-hours", not o["false"] and not table["onair"][1],
         f"{len(o['false'])} on the other music in {o['false_hours']:.1f} station-hours ({len(distinct(o['false']))} distinct), "
         f"{len(table['onair'][1])} stray in the stations"
         + ("" if o["false_hours"] >= 100 else " (fewer than 100 station-hours run)")),
        ("start within ±0.5 s", bool(errors) and max(errors) <= 0.5, f"max {max(errors):.2f} s" if errors else "nothing found"),
        ("200 stations on one core (≤ 18 s CPU per station-hour)", cpu_hour <= 18, f"{cpu_hour:.1f} s"),
    ]
    wrong = [(tool, "other music", report) for tool in tools for report in distinct(results[tool]["false"])] + \
            [(tool, "station", report) for tool in tools for report in table[tool][1]]
    if wrong:
        print("Every false or stray report (copies of one file counted once):\n")
        for tool, where, (variant, clip, start, detail) in wrong:
            extra = (f", score {detail['score']:.3f}, {aired(detail):.1f} s of it from {detail['offset']:.1f} s in"
                     if tool == "onair" else f", share {detail['share']:.3f}" if tool == "fpcalc" else f", {detail['aligned']} aligned hashes")
            print(f"- {tool}: {clip} at {start:.1f} s of the {where} ({variant}){extra}")
        print()
    strays = {(r[1], r[2]) for r in table["onair"][1]}
    scores = [r[3]["score"] for v in VARIANTS for r in results["onair"]["stations"].get(v, []) if (r[1], r[2]) not in strays]
    if scores:
        print(f"onair's scores on the true airings: lowest {min(scores):.3f}, median {statistics.median(scores):.3f}.\n")
    print("| onair against the issue's goals | met? | figure |")
    print("|---|---|---|")
    for goal, met, figure in goals:
        print(f"| {goal} | {'yes' if met else 'no'} | {figure} |")


if __name__ == "__main__":
    main()
