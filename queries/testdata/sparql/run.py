"""Run one SPARQL query with rdflib and print its rows as JSON.

Usage: python3 run.py DATA.nt QUERY.rq

Prints {"vars": [...], "rows": [[...], ...]} where each cell is the
term's string form (an IRI, a literal's lexical form or a blank node
label), or null where the variable is unbound. TestSPARQLParity uses it
for the SPARQL twins that roqet (rasqal 0.9.33) cannot run.
"""

import json
import sys

import rdflib


def main():
    data, query = sys.argv[1], sys.argv[2]
    g = rdflib.Graph()
    g.parse(data, format="nt")
    with open(query, encoding="utf-8") as f:
        text = f.read()
    res = g.query(text)
    names = [str(v) for v in res.vars]
    rows = []
    for r in res:
        rows.append([None if t is None else str(t) for t in r])
    json.dump({"vars": names, "rows": rows}, sys.stdout, ensure_ascii=False)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
