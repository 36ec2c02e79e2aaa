#!/usr/bin/env python3
"""Drives onair's Subsonic API with two Subsonic client libraries from PyPI, as phone apps would use it.

    subsonic_clients.py --port P --app-password A --web-password W --api-key K --range-file OUT

py-opensonic (libopensonic) logs in with its default, the MD5 of the app password and a salt, and with an
API key; py-sonic (libsonic) with the web password (`p=enc:…`). Prints one JSON object of what the clients
read, for the test to judge; writes the bytes a range request of the first found recording returned to OUT.
"""

import argparse
import asyncio
import json

import libopensonic
import libsonic


def main():
    parser = argparse.ArgumentParser()
    for name in ("--port", "--app-password", "--web-password", "--api-key", "--range-file"):
        parser.add_argument(name, required=True)
    args = parser.parse_args()
    port = int(args.port)
    found = {}

    salted = libopensonic.Connection("http://127.0.0.1", "onair", args.app_password, port=port,
                                     app_name="onair-test", api_version="1.16.1", use_get=True)
    keyed = libopensonic.Connection("http://127.0.0.1", api_key=args.api_key, port=port, app_name="onair-test",
                                    api_version="1.16.1")
    legacy = libsonic.Connection("http://127.0.0.1", "onair", args.web_password, port=port, appName="onair-test",
                                 apiVersion="1.16.1", legacyAuth=True)
    try:
        found["ping_salted"] = salted.ping()
        found["ping_api_key"] = keyed.ping()
        found["ping_password"] = legacy.ping()
        found["extensions"] = sorted(extension.name for extension in salted.get_open_subsonic_extensions())

        stations = salted.get_internet_radio_stations()
        found["radio"] = [{"id": s.id, "name": s.name, "streamUrl": s.stream_url} for s in stations]

        result = salted.search3("tone hour")
        songs = result.song or []
        found["songs"] = [{"id": s.id, "title": s.title, "album": s.album, "artist": s.artist,
                           "duration": s.duration, "size": s.size, "suffix": s.suffix} for s in songs]
        found["albums"] = [a.name for a in (result.album or [])]
        found["artists"] = [a.name for a in (result.artist or [])]

        if songs:
            response = salted.stream(songs[0].id, byte_range="bytes=1000-")
            # The sync connection runs aiohttp on a loop of its own: the body is read there.
            body = asyncio.run_coroutine_threadsafe(response.read(), salted._loop).result(timeout=30)
            found["range_status"] = response.status
            found["range_header"] = response.headers.get("Content-Range")
            with open(args.range_file, "wb") as out:
                out.write(body)

            ids = [s.id for s in songs]
            legacy.savePlayQueue(ids, current=ids[-1], position=61500)
            queue = salted.get_play_queue()
            found["queue"] = {"entries": [e.id for e in (queue.entry or [])], "current": queue.current,
                              "position": queue.position, "changedBy": queue.changed_by}
            found["now_playing"] = salted.scrobble(ids[-1], submission=False)
            found["scrobbled"] = legacy.scrobble(ids[0]).get("status")

        channels = salted.get_podcasts()
        found["podcasts"] = [{"title": c.title, "episodes": [e.title for e in (c.episode or [])],
                              "streamIds": [e.stream_id for e in (c.episode or [])]} for c in channels]
    finally:
        salted.cleanup()
        keyed.cleanup()
    print(json.dumps(found))


if __name__ == "__main__":
    main()
