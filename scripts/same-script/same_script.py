#!/usr/bin/env python3
"""One script, two servers: the README's "Same script, two servers" (issue 23).

    python3 scripts/same-script/same_script.py BASE TOKEN_FILE [DATASET] > answers.txt

Run it once against a CKAN portal and once against Deskstore and diff the two outputs: every
answer is printed raw, byte for byte as the server sent it, except the three things that differ
by design between two servers (the base URL, the new resource's id, and the dates the server
stamps), which are replaced by <base>, <rid> and <date>. Python's standard library only,
as a portal user's script would be.

It creates a DataStore table in DATASET (created if missing; default `same-script`) from rows
with names to sort (accents, punctuation, case), numerics with their scale, floats, timestamps
with fractions and a JSON column, then reads it the ways scripts do: sorted pages, filters,
full text with rank, lists and CSV records, SQL, info, and a few errors. The resource is
deleted at the end.
"""

import json
import re
import sys
import urllib.error
import urllib.parse
import urllib.request

BASE = sys.argv[1].rstrip("/")
TOKEN = open(sys.argv[2]).read().strip()
DATASET = sys.argv[3] if len(sys.argv) > 3 else "same-script"

NAMES = [
    "Zed", "abd", "ábc", "àbc", "Abc", "ABC", "abc", "'Akra", "(x)", "-dash", "  double", "6th",
    "æther", "Øresund", "Łódź", "Straße", "strasse", "Élan", "elan", "Zürich", "zurich", "d'Azur",
    "O'Brien", "Ob", "Città di Castello", "Cittadella", "San Floriano del Collio-Števerjan",
    "Forlì", "Forli", "Bolzano/Bozen", "co-op", "coop", "Co op", "résumé", "resume", "Résumé",
]

ROWS = [
    {
        "name": name,
        "n": ["310.00", "-12.340", "0.000100", "123456789012345678901234567890.123456789", "1000", None][i % 6],
        "f": [2.5e-07, 1e16, 0.1, 1234567.125, -3.0, None][i % 6],
        "ts": ["2024-01-02T03:04:05.123456", "2023-12-31T23:59:59", None][i % 3],
        "doc": [{"a": 100.0, "b": [1, 2.5], "c": "é"}, "", None][i % 3],
    }
    for i, name in enumerate(NAMES)
]

FIELDS = [
    {"id": "name", "type": "text", "info": {"label": "Nome"}},
    {"id": "n", "type": "numeric"},
    {"id": "f", "type": "float8"},
    {"id": "ts", "type": "timestamp"},
    {"id": "doc", "type": "json"},
]

rid = None
DATE = re.compile(r'\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?')


def call(action, params=None, body=None):
    """One request; the raw answer text and its status."""
    url = f"{BASE}/api/3/action/{action}"
    if params is not None:
        url += "?" + urllib.parse.urlencode(params)
    data = json.dumps(body).encode() if body is not None else None
    headers = {"Authorization": TOKEN}
    if data is not None:
        headers["Content-Type"] = "application/json"
    request = urllib.request.Request(url, data=data, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=60) as r:
            return r.status, r.read().decode("utf-8")
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode("utf-8")


def show(title, status, text):
    """Prints an answer raw, with what differs by design between two servers replaced."""
    text = text.replace(BASE, "<base>")
    if rid:
        text = text.replace(rid, "<rid>")
    text = DATE.sub("<date>", text) if title.startswith("create") else text
    print(f"== {title} ({status})")
    print(text)


def main():
    global rid
    status, text = call("package_show", {"id": DATASET})
    if status == 404:
        status, text = call("package_create", body={"name": DATASET})
        if status != 200:
            sys.exit(f"package_create: {status} {text}")
    status, text = call(
        "datastore_create",
        body={"resource": {"package_id": DATASET, "name": "same-script"}, "fields": FIELDS, "records": ROWS},
    )
    if status != 200:
        sys.exit(f"datastore_create: {status} {text}")
    rid = json.loads(text)["result"]["resource_id"]
    show("create: datastore_create's echo", status, text)
    try:
        pages = [
            ("sorted by name, page 2", {"resource_id": rid, "sort": "name", "limit": 8, "offset": 8}),
            ("sorted by name desc, fields", {"resource_id": rid, "sort": "name desc", "fields": "name,n", "limit": 5}),
            ("filters", {"resource_id": rid, "filters": json.dumps({"n": "310.00"}), "sort": "_id"}),
            ("full text with rank", {"resource_id": rid, "q": "abc", "fields": "name,rank", "sort": "name"}),
            ("lists", {"resource_id": rid, "records_format": "lists", "limit": 6, "sort": "_id"}),
            ("csv", {"resource_id": rid, "records_format": "csv", "limit": 6, "sort": "_id"}),
            ("bad limit", {"resource_id": rid, "limit": "bad"}),
            ("unknown field", {"resource_id": rid, "fields": "nope"}),
            ("not found", {"resource_id": "no-such-résumé"}),
        ]
        for title, params in pages:
            show(f"datastore_search: {title}", *call("datastore_search", params))
        # The order every row comes in, one line per name: the collation at a glance.
        _, text = call("datastore_search", {"resource_id": rid, "sort": "name", "fields": "name", "limit": 100})
        print("== every name, sorted by name")
        print(" | ".join(r["name"] for r in json.loads(text)["result"]["records"]))
        queries = [
            ("order and min/max", f'SELECT min(name), max(name), count(*) FROM "{rid}"'),
            ("text and floats", f'SELECT name, f FROM "{rid}" ORDER BY name LIMIT 6'),
            ("refused function", f'SELECT coalesce(name, \'x\') FROM "{rid}"'),
            ("system table", 'SELECT * FROM pg_roles'),
        ]
        for title, sql in queries:
            show(f"datastore_search_sql: {title}", *call("datastore_search_sql", {"sql": sql}))
    finally:
        status, text = call("datastore_delete", body={"resource_id": rid, "force": True})
        show("datastore_delete", status, text)
        call("resource_delete", body={"id": rid})


main()
