// Run SPARQL queries with Oxigraph (npm oxigraph) over an N-Quads file, as
// a researcher would after loading capgraph's export: default settings, so
// the default graph is the default graph only, not the union of the named
// graphs.
//
// Usage: node oxigraph.mjs DATA.nq QUERY.rq...
//
// Loads DATA.nq once, then prints one JSON line per query:
// {"query": FILE, "vars": [...], "rows": [[...], ...], "ms": N}, each cell the
// term's string form (an IRI, a literal's lexical form or a blank node
// label) or null where the variable is unbound; or {"query": FILE,
// "error": MESSAGE}. The first line is {"quads": N, "ms": N}. The module
// is found through NODE_PATH or $CAPGRAPH_TEST_OXIGRAPH (a node_modules
// directory that holds oxigraph).
import { createRequire } from "node:module";
import fs from "node:fs";
import path from "node:path";

const require = createRequire(import.meta.url);
const dir = process.env.CAPGRAPH_TEST_OXIGRAPH;
const oxigraph = require(dir ? path.join(dir, "oxigraph") : "oxigraph");

// chunks reads a file in pieces: an export at 10^5 captions is larger
// than a JavaScript string may be.
function* chunks(file) {
  const fd = fs.openSync(file, "r");
  try {
    const buf = Buffer.alloc(16 << 20);
    for (;;) {
      const n = fs.readSync(fd, buf, 0, buf.length, null);
      if (n === 0) return;
      yield new Uint8Array(buf.subarray(0, n));
    }
  } finally {
    fs.closeSync(fd);
  }
}

const [data, ...files] = process.argv.slice(2);
const store = new oxigraph.Store();
let t = performance.now();
store.load(chunks(data), { format: "application/n-quads", no_transaction: true });
console.log(JSON.stringify({ quads: store.size, ms: Math.round(performance.now() - t) }));
for (const file of files) {
  const text = fs.readFileSync(file, "utf8");
  t = performance.now();
  let res;
  try {
    res = JSON.parse(store.query(text, { results_format: "application/sparql-results+json" }));
  } catch (e) {
    console.log(JSON.stringify({ query: file, error: String(e) }));
    continue;
  }
  const ms = Math.round(performance.now() - t);
  const vars = res.head.vars;
  const rows = res.results.bindings.map((b) => vars.map((v) => (b[v] ? b[v].value : null)));
  console.log(JSON.stringify({ query: file, vars, rows, ms }));
}
