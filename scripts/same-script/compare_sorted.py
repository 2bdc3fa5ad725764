#!/usr/bin/env python3
"""A pushed table read back from two servers, sorted by every column (issue 23).

    python3 scripts/same-script/compare_sorted.py BASE_A TOKEN_FILE_A RESOURCE_A BASE_B TOKEN_FILE_B RESOURCE_B

For each column, ascending and descending, it asks both servers for every row (`records_format`
lists, up to 32,000) and prints one line per sort: whether the column's values come in the same
order, and whether the rows are byte for byte the same once ties are broken by `_id`
(PostgreSQL leaves the order of rows with equal keys to its sort, so CKAN itself may answer
ties in any order). The columns are matched by position, so a column renamed on the portal
(63 bytes at most there) is compared with its local original. A token file may be `-` (none).
"""

import json
import sys
import urllib.parse
import urllib.request


def search(base, token, params):
    url = f"{base.rstrip('/')}/api/3/action/datastore_search?" + urllib.parse.urlencode(params)
    request = urllib.request.Request(url, headers={"Authorization": token} if token else {})
    with urllib.request.urlopen(request, timeout=120) as r:
        return r.read().decode("utf-8")


def records_text(answer):
    """The raw `records` member: the bytes the server wrote for the rows."""
    start = answer.index('"records": ') + len('"records": ')
    end = answer.index(', "_links"', start) if answer.index('"records": ') > answer.find('"fields": ') else answer.index(', "fields": ', start)
    return answer[start:end]


def main():
    a = (sys.argv[1], sys.argv[2], sys.argv[3])
    b = (sys.argv[4], sys.argv[5], sys.argv[6])
    sides = []
    for base, token_file, rid in (a, b):
        token = None if token_file == "-" else open(token_file).read().strip()
        fields = json.loads(search(base, token, {"resource_id": rid, "limit": 0}))["result"]["fields"]
        sides.append((base, token, rid, [f["id"] for f in fields]))
    if len(sides[0][3]) != len(sides[1][3]):
        sys.exit(f"different columns: {len(sides[0][3])} and {len(sides[1][3])}")
    sorts = keys_same = rows_same = 0
    for i in range(len(sides[0][3])):
        for direction in ("", " desc"):
            answers = []
            for base, token, rid, ids in sides:
                listed = ",".join(f'"{c}"' for c in ids)
                one = search(base, token, {"resource_id": rid, "sort": f'"{ids[i]}"{direction}', "limit": 32000, "records_format": "lists", "fields": listed})
                tied = search(base, token, {"resource_id": rid, "sort": f'"{ids[i]}"{direction}, _id', "limit": 32000, "records_format": "lists", "fields": listed})
                answers.append(([r[i] for r in json.loads(one)["result"]["records"]], records_text(tied)))
            same_keys = answers[0][0] == answers[1][0]
            same_rows = answers[0][1] == answers[1][1]
            sorts += 1
            keys_same += same_keys
            rows_same += same_rows
            print(f"{sides[1][3][i]}{direction}: order {'same' if same_keys else 'DIFFERS'}, rows {'identical' if same_rows else 'DIFFER'}")
    print(f"{sorts} sorts: the column's order the same in {keys_same}, the rows byte-identical (ties by _id) in {rows_same}")
    sys.exit(0 if keys_same == rows_same == sorts else 1)


main()
