// lib.js: helpers every saved query may use. The query runner places this
// file after the generated params line and before the query's own text, so
// a query, built-in or a user's, starts with these names defined:
//
//   S, C, RDF          the schema.org, capgraph and rdf namespaces
//   P(iri)             "<iri>", the form Gizmo takes IRIs in
//   uniq(xs)           xs without repeats, in first-seen order
//   bare(v)            an IRI or typed literal as its plain text
//   label(node)        the least of a node's schema:name values, "" if none
//   labelAll(nodes)    looks up the labels of many nodes in one query, for label()
//   named(spellings)   nodes named or alternately named by any spelling, and <IRI>s as given
//   within(seeds)      seeds and every place inside one (capgraph:locatedIn or
//                      schema:containedInPlace), up to 5 steps
//   emitSorted(rows, keys, unique)  emit rows sorted by keys ("-key" descending), keeping
//                      the first of the rows that agree on the unique columns (if given),
//                      up to params.limit: one {"$rows": [...], "$sort": keys, "$unique": unique,
//                      "$limit": n} batch, which the runner sorts and reads as rows (numbers
//                      by value, strings by code point, as goja's < orders them)
//   emitTagged(path, columns, keys, unique)  emit path's TagArray() as rows, each column
//                      (columns: {name: tag}) its tag's value made plain, as bare() makes it,
//                      XSD numbers as numbers, "" if unbound; sorted by keys, keeping the first
//                      of the rows that agree on the unique columns, up to params.limit. The
//                      runner does all of it, and the paths never become JavaScript objects
//   values(m)          the values of an object
//   needTallies()      throws unless the store keeps tallies (capgraph:photoCount,
//                      credits: docs/model.md, "Tallies"), as stores built before them do not
var S = "https://schema.org/", C = "https://capgraph.org/ns#", RDF = "http://www.w3.org/1999/02/22-rdf-syntax-ns#";
function P(t) { return "<" + t + ">"; }
function uniq(xs) { var seen = {}, out = []; for (var i = 0; i < xs.length; i++) { if (!seen[xs[i]]) { seen[xs[i]] = true; out.push(xs[i]); } } return out; }
function bare(v) { // "<iri>" -> iri, "\"lex\"^^<type>" -> lex
  if (typeof v != "string") return v;
  if (v.charAt(0) == "<") return v.slice(1, -1);
  var i = v.indexOf("\"^^<");
  return v.charAt(0) == "\"" && i > 0 ? v.slice(1, i) : v;
}
var labels = {};
function label(n) { // the least of a node's schema:name values, "" if none
  if (!(n in labels)) labelAll([n]);
  return labels[n];
}
function labelAll(ns) { // label() for many nodes with one query: call it before a loop of label()s
  var todo = uniq(ns.filter(function (n) { return !(n in labels); }));
  if (!todo.length) return;
  todo.forEach(function (n) { labels[n] = ""; });
  g.V.apply(g, todo).Save(P(S + "name"), "name").TagArray().forEach(function (d) {
    var v = bare(d.name);
    if (labels[d.id] == "" || v < labels[d.id]) labels[d.id] = v;
  });
}
function named(spellings) { // nodes with a schema:name or schema:alternateName spelled so, and nodes given as <IRI>
  var lits = [], out = [];
  for (var i = 0; i < spellings.length; i++) { if (spellings[i].charAt(0) == "<") out.push(spellings[i]); else lits.push(spellings[i]); }
  if (lits.length) out = out.concat(g.V.apply(g, lits).In([P(S + "name"), P(S + "alternateName")]).ToArray());
  return uniq(out).sort();
}
function within(seeds) { // seeds and every node that lies in one, by capgraph:locatedIn or schema:containedInPlace, up to 5 steps
  // Step by step rather than FollowRecursive: Cayley builds a recursive
  // step's iterators without asking the store to plan them, which on bbolt
  // reads every quad of every node it visits.
  var out = uniq(seeds), seen = {}, frontier = out;
  out.forEach(function (n) { seen[n] = true; });
  for (var depth = 0; depth < 5 && frontier.length; depth++) {
    frontier = g.V.apply(g, frontier).In([P(C + "locatedIn"), P(S + "containedInPlace")]).ToArray()
      .filter(function (n) { if (seen[n]) return false; seen[n] = true; return true; });
    out = out.concat(frontier);
  }
  return out.sort();
}
function emitSorted(rows, keys, unique) { // keys: column names; a leading "-" sorts descending
  if (rows.length) emitBatch({ "$rows": rows }, keys, unique);
}
function emitTagged(path, columns, keys, unique) {
  emitBatch({ "$rows": path.TagArray(), "$columns": columns }, keys, unique);
}
function emitBatch(b, keys, unique) {
  // The runner sorts and cuts the batch (queries/rows): goja spends
  // about 10 µs a row on sorting, Go under 1 (rows' BenchmarkSortBatch).
  b["$sort"] = keys;
  b["$unique"] = unique || [];
  b["$limit"] = typeof params.limit == "number" && params.limit > 0 ? params.limit : 0;
  g.Emit(b);
}
function values(m) { var out = []; for (var k in m) out.push(m[k]); return out; }
function needTallies() {
  if (!g.V(P("https://capgraph.org/id/tallies")).Out(P(RDF + "type")).ToArray().length) {
    throw new Error("this store keeps no tallies, which it was built before: run capgraph build on it once (with any captions, even ones it holds) to count them");
  }
}
