#!/usr/bin/env python3
"""Snapcast stream plugin ("control script") that shows what onair relays: the titles onair writes
to its --meta-fifo become the stream's metadata in Snapcast (snapweb, Snapdroid, Home Assistant).

    onair relay fip --to fifo:/tmp/snapfifo --meta-fifo /tmp/snapfifo.meta

    # snapserver.conf
    source = pipe:///tmp/snapfifo?name=radio&controlscript=/path/to/onair-meta.py

The title FIFO is --meta-fifo=PATH from `controlscriptparams` (snapserver 0.27 and later), else
$ONAIR_META_FIFO in snapserver's environment, else /tmp/snapfifo.meta. Python 3 standard library only.
See docs/relay.md.
"""
import json, os, stat, sys, threading

output_lock = threading.Lock()
properties = {
    "playbackStatus": "playing", "loopStatus": "none", "shuffle": False,
    "canControl": False, "canGoNext": False, "canGoPrevious": False,
    "canPlay": False, "canPause": False, "canSeek": False, "metadata": {},
}

def send(message):
    message["jsonrpc"] = "2.0"
    with output_lock:
        sys.stdout.write(json.dumps(message) + "\n")
        sys.stdout.flush()

def metadata(line):
    """onair's `{"title": "Artist - Title", "url": …}` as Snapcast metadata."""
    title = line.get("title", "")
    artist, separator, name = title.partition(" - ")
    fields = {"title": name, "artist": [artist]} if separator and artist and name else {"title": title}
    if line.get("url"):
        fields["url"] = line["url"]
    return fields

def follow(path):
    """Reads title lines for as long as snapserver runs; onair may come and go."""
    if not os.path.exists(path):
        os.mkfifo(path, 0o644)
    if not stat.S_ISFIFO(os.stat(path).st_mode):
        send({"method": "Plugin.Stream.Log", "params": {"severity": "Error", "message": f"{path} is not a FIFO"}})
        return
    while True:
        with open(path, encoding="utf-8", errors="replace") as fifo:  # waits for onair to open it
            for text in fifo:
                try:
                    line = json.loads(text)
                except ValueError:
                    continue
                properties["metadata"] = metadata(line)
                send({"method": "Plugin.Stream.Player.Properties", "params": properties})

def answer(request):
    if "id" not in request:
        return
    if request.get("method") == "Plugin.Stream.Player.GetProperties":
        send({"id": request["id"], "result": properties})
    else:
        send({"id": request["id"], "error": {"code": -32601, "message": "a radio relayed by onair cannot be controlled"}})

def main():
    arguments = dict(argument[2:].split("=", 1) for argument in sys.argv[1:] if argument.startswith("--") and "=" in argument)
    path = arguments.get("meta-fifo") or os.environ.get("ONAIR_META_FIFO") or "/tmp/snapfifo.meta"
    threading.Thread(target=follow, args=(path,), daemon=True).start()
    send({"method": "Plugin.Stream.Ready"})
    for text in sys.stdin:  # requests from snapserver; end of input means it is gone
        try:
            answer(json.loads(text))
        except ValueError:
            pass

if __name__ == "__main__":
    main()
