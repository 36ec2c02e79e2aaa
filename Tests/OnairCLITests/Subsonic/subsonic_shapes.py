#!/usr/bin/env python3
"""Compares the shape of onair's Subsonic API answers with a reference server's (supysonic).

    subsonic_shapes.py --ours URL --reference URL --user U --password P --requests FILE [--xml]

URL is a server's root (http://127.0.0.1:PORT) or its /rest. FILE is a JSON list of
    {"name": ..., "ours": {"endpoint": "getAlbum", "params": {...}}, "reference": {"endpoint": ..., "params": {...}}}
(ids differ between the servers, so each side has its own params; a list value sends the parameter once per item).
Both are asked with u, p (plain), v=1.16.1, c=onair-test and f=json (with --xml, no f).

The shape of an answer is the set of its key paths, each with its JSON types (an array's elements are described by
the union of their shapes); with --xml, the paths of its elements, attributes (@name) and text (#text). Reported, one
line each: the paths the reference has and ours lacks (only the outermost of a missing subtree) and type mismatches.
Keys only ours has are fine, and so are subsonic-response's type, serverVersion and openSubsonic, and keys the
reference gives only as null. A request the reference answers with a Subsonic error is reported as not offered by it
and does not fail. Exits 1 when any request differs, 2 when the reference cannot be asked or its answer is not
JSON (XML) at all: binary answers (stream, download, getCoverArt) are not for this script.
"""

import argparse
import json
import sys
import urllib.error
import urllib.parse
import urllib.request
import xml.etree.ElementTree as ElementTree

IGNORED_ROOT_KEYS = {"type", "serverVersion", "openSubsonic"}


class Unreachable(Exception):
    pass


def fetch(root, endpoint, params, user, password, xml):
    root = root.rstrip("/")
    if not root.endswith("/rest"):
        root += "/rest"
    if not endpoint.endswith(".view"):
        endpoint += ".view"
    query = {"u": user, "p": password, "v": "1.16.1", "c": "onair-test"}
    if not xml:
        query["f"] = "json"
    query.update(params)
    url = f"{root}/{endpoint}?{urllib.parse.urlencode(query, doseq=True)}"
    try:
        with urllib.request.urlopen(url, timeout=30) as response:
            return response.read()
    except urllib.error.HTTPError as error:  # supysonic answers unknown methods with 404 and a Subsonic error
        return error.read()
    except (urllib.error.URLError, OSError) as error:
        raise Unreachable(f"{url}: {error}") from error


def json_type(value):
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    return "array" if isinstance(value, list) else "object"


def json_shape(value, path=(), shape=None):
    """{path (a tuple of keys, "[]" for an array's elements): set of JSON types}"""
    shape = {} if shape is None else shape
    shape.setdefault(path, set()).add(json_type(value))
    if isinstance(value, dict):
        for key, item in value.items():
            if not (path == () and key in IGNORED_ROOT_KEYS):
                json_shape(item, path + (key,), shape)
    elif isinstance(value, list):
        for item in value:
            json_shape(item, path + ("[]",), shape)
    return shape


def local_name(tag):
    return tag.rsplit("}", 1)[-1]


def xml_shape(element, path=(), shape=None):
    """{path (element names, then "@attribute" or "#text"): {"element", "attribute" or "text"}}"""
    shape = {} if shape is None else shape
    path = path + (local_name(element.tag),)
    shape.setdefault(path, set()).add("element")
    for name in element.attrib:
        if not (len(path) == 1 and name in IGNORED_ROOT_KEYS):
            shape.setdefault(path + ("@" + local_name(name),), set()).add("attribute")
    if element.text and element.text.strip():
        shape.setdefault(path + ("#text",), set()).add("text")
    for child in element:
        xml_shape(child, path, shape)
    return shape


def show(path, separator):
    text = ""
    for part in path:
        text += part if part == "[]" or part.startswith(("@", "#")) or not text else separator + part
    return text or "(root)"


def parse(body, xml):
    """(shape, error, root tag) of an answer: error is (code, message) for a Subsonic error, the root tag (with its
    namespace) is for XML only. Raises ValueError when the answer is unreadable."""
    if xml:
        try:
            root = ElementTree.fromstring(body)
        except ElementTree.ParseError as error:
            raise ValueError(f"not XML ({error}): {body[:200]!r}") from error
        if local_name(root.tag) != "subsonic-response":
            raise ValueError(f"root element is {root.tag}, not subsonic-response")
        error = next((child for child in root if local_name(child.tag) == "error"), None)
        if root.get("status") == "failed" and error is not None:
            return None, (error.get("code"), error.get("message")), root.tag
        return xml_shape(root), None, root.tag
    try:
        document = json.loads(body)
    except ValueError as error:
        raise ValueError(f"not JSON ({error}): {body[:200]!r}") from error
    response = document.get("subsonic-response") if isinstance(document, dict) else None
    if not isinstance(response, dict):
        raise ValueError(f"no subsonic-response object: {body[:200]!r}")
    if response.get("status") == "failed":
        error = response.get("error") or {}
        return None, (error.get("code"), error.get("message")), None
    return json_shape(response), None, None


def differences(ours, reference, separator):
    lines = []
    reported = []  # paths already missing or mismatched: their subtrees are not reported again
    for path in sorted(reference):
        if any(path[:len(done)] == done for done in reported):
            continue
        wanted = reference[path] - {"null"}
        if not wanted:
            continue
        if path not in ours:
            lines.append(f"missing {show(path, separator)} ({'|'.join(sorted(wanted))})")
            reported.append(path)
            continue
        have = ours[path] - {"null"}
        if have and have != wanted:
            lines.append(f"type of {show(path, separator)}: ours {'|'.join(sorted(have))}, reference {'|'.join(sorted(wanted))}")
            reported.append(path)
    return lines


def main():
    arguments = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    arguments.add_argument("--ours", required=True)
    arguments.add_argument("--reference", required=True)
    arguments.add_argument("--user", required=True)
    arguments.add_argument("--password", required=True)
    arguments.add_argument("--requests", required=True)
    arguments.add_argument("--xml", action="store_true", help="compare the XML answers (f omitted)")
    options = arguments.parse_args()
    with open(options.requests, encoding="utf-8") as file:
        requests = json.load(file)

    differing = not_offered = 0
    for request in requests:
        name = request["name"]
        ours_side = request["ours"]
        reference_side = request.get("reference", ours_side)
        try:
            reference_body = fetch(options.reference, reference_side["endpoint"], reference_side.get("params", {}),
                                   options.user, options.password, options.xml)
            reference, reference_error, reference_root = parse(reference_body, options.xml)
        except (Unreachable, ValueError) as error:
            print(f"{name}: reference: {error}")
            return 2
        if reference_error:
            print(f"{name}: reference does not offer {reference_side['endpoint']} "
                  f"(error {reference_error[0]}: {reference_error[1]})")
            not_offered += 1
            continue
        try:
            ours_body = fetch(options.ours, ours_side["endpoint"], ours_side.get("params", {}),
                              options.user, options.password, options.xml)
            ours, ours_error, ours_root = parse(ours_body, options.xml)
        except (Unreachable, ValueError) as error:
            lines = [f"ours: {error}"]
        else:
            if ours_error:
                lines = [f"ours answers error {ours_error[0]}: {ours_error[1]}"]
            else:
                lines = differences(ours, reference, "/" if options.xml else ".")
                if options.xml and ours_root != reference_root:  # the tags carry the namespace
                    lines.insert(0, f"root element: ours {ours_root}, reference {reference_root}")
        for line in lines:
            print(f"{name}: {line}")
        differing += bool(lines)

    print(f"shapes: {len(requests) - not_offered} compared, {differing} differ, "
          f"{not_offered} not offered by the reference")
    return 1 if differing else 0


if __name__ == "__main__":
    sys.exit(main())
