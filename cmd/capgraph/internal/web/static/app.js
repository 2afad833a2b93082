// capgraph web page: plain JavaScript, no libraries, no network beyond this server.
"use strict";

const SVGNS = "http://www.w3.org/2000/svg";
const view = document.getElementById("view");
let world = null; // country outlines, loaded once

// h builds an HTML element: h("a", {href: "#"}, "text", child...).
function h(tag, attrs, ...kids) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else el.setAttribute(k, v === true ? "" : v);
  }
  for (const k of kids.flat()) if (k !== null && k !== undefined) el.append(k instanceof Node ? k : String(k));
  return el;
}
function s(tag, attrs, ...kids) {
  const el = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs || {})) if (v !== undefined && v !== null) el.setAttribute(k, v);
  for (const k of kids.flat()) if (k !== null && k !== undefined) el.append(k instanceof Node ? k : String(k));
  return el;
}

async function api(path, opts) {
  const res = await fetch(path, opts);
  const body = await res.json().catch(() => ({ error: res.statusText }));
  if (!res.ok) throw new Error(body.error || res.statusText);
  return body;
}

function show(...kids) { view.replaceChildren(...kids.filter((k) => k !== null && k !== undefined)); }
function kindBadge(kind) { return h("span", { class: "kind " + kind }, kind); }
function entityHref(iri) { return "#/entity?iri=" + encodeURIComponent(iri); }
function showError(err) { show(h("p", { class: "error" }, String(err.message || err))); }

// ---- routing ----------------------------------------------------------------

async function route() {
  const hash = location.hash.slice(1) || "/";
  const [path, qs] = hash.split("?");
  const params = new URLSearchParams(qs || "");
  view.setAttribute("data-loading", "");
  try {
    if (path === "/search") await pageSearch(params.get("q") || "");
    else if (path === "/entity") await pageEntity(params.get("iri") || "");
    else if (path === "/queries") await pageQueries(null, params);
    else if (path.startsWith("/query/")) await pageQueries(decodeURIComponent(path.slice(7)), params);
    else if (path === "/export") pageExport();
    else await pageHome();
  } catch (err) {
    showError(err);
  } finally {
    view.removeAttribute("data-loading");
    view.setAttribute("data-page", path);
  }
}
window.addEventListener("hashchange", route);
document.getElementById("search-form").addEventListener("submit", (ev) => {
  ev.preventDefault();
  const q = document.getElementById("q").value.trim();
  if (q) location.hash = "#/search?q=" + encodeURIComponent(q);
});

// ---- pages ------------------------------------------------------------------

async function pageHome() {
  const [stats, places, dates] = await Promise.all([api("/api/stats"), api("/api/places"), api("/api/timeline")]);
  const ents = stats.Entities || {};
  show(
    h("h1", {}, "Caption graph"),
    stats.indexed ? null : h("p", { class: "muted" }, "The server is still indexing the store; search is limited to exact names until it is done."),
    h("div", { class: "stats card", id: "stats" },
      h("div", {}, h("b", {}, stats.Captions ?? "…"), "captions"),
      ...["Person", "Place", "ArmedGroup", "Organization", "Event"].map((k) => h("div", {}, h("b", {}, ents[k] ?? 0), k)),
      h("div", {}, h("b", {}, stats.Quads ?? "…"), "quads")),
    h("div", { class: "grid" },
      h("section", { class: "card" }, h("h2", {}, "Places with coordinates"), await mapView(places, null)),
      h("section", { class: "card" }, h("h2", {}, "Photos by month"), timelineView(dates))));
}

async function pageSearch(q) {
  document.getElementById("q").value = q;
  const res = await api("/api/search?q=" + encodeURIComponent(q));
  const list = h("ul", { class: "hits", id: "results" });
  for (const hit of res.hits) {
    list.append(h("li", {},
      h("a", { class: "hit", href: entityHref(hit.iri), "data-iri": hit.iri }, hit.label), " ", kindBadge(hit.kind),
      hit.match && hit.match !== hit.label ? h("span", { class: "muted" }, " matched “" + hit.match + "”") : null,
      h("div", { class: "muted" }, h("small", {}, hit.iri))));
  }
  show(h("h1", {}, "Search: ", q),
    res.hits.length ? list : h("p", { id: "results", class: "muted" }, "Nothing found for “" + q + "”."));
}

async function pageEntity(iri) {
  const e = await api("/api/entity?iri=" + encodeURIComponent(iri));
  const facts = h("table", { id: "facts" },
    h("thead", {}, h("tr", {}, h("th", {}, "predicate"), h("th", {}, "value"), h("th", {}, "confidence"), h("th", {}, "captions"))),
    h("tbody", {}, e.facts.map((f) => h("tr", {},
      h("td", {}, f.inverse ? "is " + f.predicate + " of" : f.predicate),
      h("td", {}, f.value.iri ? h("a", { href: entityHref(f.value.iri) }, f.value.label) : f.value.label),
      h("td", {}, f.confidence ? f.confidence.toFixed(2) : ""),
      h("td", {}, f.captions.slice(0, 8).map((id) => h("a", { href: "#caption-" + id, class: "cap-ref", style: "margin-right:.3em" }, id)),
        f.captions.length > 8 ? "…" : "")))));
  const caps = h("div", { id: "captions" }, e.captions.map(captionView));
  const places = e.nodes.filter((n) => n.lat !== undefined && n.lon !== undefined);
  const dates = {};
  for (const c of e.captions) if (c.date) dates[c.date] = (dates[c.date] || 0) + 1;
  show(
    h("h1", { id: "entity-name" }, e.label, " ", kindBadge(e.kind)),
    h("p", { class: "muted" }, h("small", {}, e.iri),
      e.lat !== undefined ? h("span", {}, " · ", e.lat.toFixed(4), ", ", e.lon.toFixed(4)) : null,
      e.names.length > 1 ? h("span", {}, " · also: ", e.names.slice(1).join(", ")) : null,
      e.truncated ? h("span", {}, " · showing part of a large neighbourhood") : null),
    h("div", { class: "grid" },
      h("section", { class: "card" }, h("h2", {}, "Neighbourhood"), graphView(e)),
      h("section", { class: "card" }, h("h2", {}, "Map"),
        places.length ? await mapView(places, e.iri) : h("p", { class: "muted", id: "map-empty" }, "No place with coordinates around this entity."))),
    h("section", { class: "card" }, h("h2", {}, "Facts"), e.facts.length ? facts : h("p", { class: "muted" }, "No facts.")),
    h("section", {}, h("h2", {}, "Captions (" + e.captions.length + ")"), caps),
    Object.keys(dates).length ? h("section", { class: "card" }, h("h2", {}, "Timeline"),
      timelineView(Object.entries(dates).map(([date, count]) => ({ date, count })))) : null);
}

// captionView shows a caption with the entity's mentions marked. Offsets
// are Unicode code points, so the text is split into code points first.
function captionView(c) {
  const cps = Array.from(c.text);
  const body = h("div", { class: "text" });
  let at = 0;
  for (const m of c.mentions) {
    if (m.start < at || m.end > cps.length) continue;
    body.append(cps.slice(at, m.start).join(""));
    body.append(h("mark", { title: "confidence " + m.confidence }, cps.slice(m.start, m.end).join("")));
    at = m.end;
  }
  body.append(cps.slice(at).join(""));
  return h("div", { class: "caption", id: "caption-" + c.id },
    body, h("div", { class: "meta" }, h("a", { href: entityHref(c.photo) }, c.id), c.date ? " · " + c.date : ""));
}

// ---- graph view: a small force layout ----------------------------------------

const kindColour = (k) => getComputedStyle(document.documentElement).getPropertyValue("--" + k).trim() || "#495057";

function graphView(e) {
  const W = 640, H = 440;
  const nodes = e.nodes.map((n, i) => ({ ...n, x: W / 2 + 150 * Math.cos(i * 2.4) * Math.sqrt(i / e.nodes.length), y: H / 2 + 150 * Math.sin(i * 2.4) * Math.sqrt(i / e.nodes.length), vx: 0, vy: 0 }));
  nodes[0].x = W / 2; nodes[0].y = H / 2;
  const byIRI = new Map(nodes.map((n) => [n.iri, n]));
  const links = e.links.filter((l) => byIRI.has(l.source) && byIRI.has(l.target)).map((l) => ({ ...l, s: byIRI.get(l.source), t: byIRI.get(l.target) }));
  const svg = s("svg", { class: "graph", id: "graph", viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": "neighbourhood graph" });
  const lines = links.map((l) => s("line", {}, s("title", {}, l.label)));
  const groups = nodes.map((n, i) => {
    const g = s("g", { class: "node" + (i === 0 ? " center" : ""), "data-iri": n.iri },
      s("circle", { r: i === 0 ? 10 : 7, fill: kindColour(n.kind) }), s("text", { x: 11, y: 4 }, n.label), s("title", {}, n.kind + ": " + n.label));
    return g;
  });
  svg.append(...lines, ...groups);
  function tick(alpha) {
    for (let i = 0; i < nodes.length; i++) for (let j = i + 1; j < nodes.length; j++) {
      const a = nodes[i], b = nodes[j];
      let dx = b.x - a.x, dy = b.y - a.y, d2 = dx * dx + dy * dy || 0.01;
      const f = (1800 * alpha) / d2, d = Math.sqrt(d2);
      dx /= d; dy /= d;
      a.vx -= dx * f; a.vy -= dy * f; b.vx += dx * f; b.vy += dy * f;
    }
    for (const l of links) {
      const dx = l.t.x - l.s.x, dy = l.t.y - l.s.y, d = Math.sqrt(dx * dx + dy * dy) || 0.01;
      const f = ((d - 80) / d) * 0.08 * alpha;
      l.s.vx += dx * f; l.s.vy += dy * f; l.t.vx -= dx * f; l.t.vy -= dy * f;
    }
    for (const n of nodes) {
      n.vx += (W / 2 - n.x) * 0.01 * alpha; n.vy += (H / 2 - n.y) * 0.01 * alpha;
      if (!n.fixed) { n.x += n.vx; n.y += n.vy; }
      n.vx *= 0.6; n.vy *= 0.6;
      n.x = Math.max(12, Math.min(W - 60, n.x)); n.y = Math.max(12, Math.min(H - 12, n.y));
    }
  }
  function draw() {
    links.forEach((l, i) => { lines[i].setAttribute("x1", l.s.x); lines[i].setAttribute("y1", l.s.y); lines[i].setAttribute("x2", l.t.x); lines[i].setAttribute("y2", l.t.y); });
    nodes.forEach((n, i) => groups[i].setAttribute("transform", `translate(${n.x.toFixed(1)},${n.y.toFixed(1)})`));
  }
  for (let k = 0; k < 300; k++) tick(1 - k / 300);
  draw();
  // Drag a node to move it; click one to open it.
  let drag = null, moved = false;
  const pt = (ev) => { const r = svg.getBoundingClientRect(); return { x: ((ev.clientX - r.left) / r.width) * W, y: ((ev.clientY - r.top) / r.height) * H }; };
  groups.forEach((g, i) => {
    g.addEventListener("pointerdown", (ev) => { drag = nodes[i]; drag.fixed = true; moved = false; svg.setPointerCapture(ev.pointerId); });
    g.addEventListener("click", () => { if (!moved && i > 0) location.hash = entityHref(nodes[i].iri); });
  });
  svg.addEventListener("pointermove", (ev) => {
    if (!drag) return;
    const p = pt(ev); drag.x = p.x; drag.y = p.y; moved = true;
    for (let k = 0; k < 3; k++) tick(0.3);
    draw();
  });
  svg.addEventListener("pointerup", () => { if (drag) drag.fixed = false; drag = null; });
  return svg;
}

// ---- map: equirectangular, offline outlines ----------------------------------

async function mapView(places, center) {
  if (!world) {
    world = await (await fetch("/world.json")).json();
    document.getElementById("attribution").textContent = world.attribution + " Place coordinates: GeoNames (CC BY 4.0) and capgraph's curated table.";
  }
  // Frame the places with a margin; at least 24 degrees wide.
  let [x0, x1, y0, y1] = [180, -180, 90, -90];
  for (const p of places) { x0 = Math.min(x0, p.lon); x1 = Math.max(x1, p.lon); y0 = Math.min(y0, -p.lat); y1 = Math.max(y1, -p.lat); }
  if (!places.length) [x0, x1, y0, y1] = [-180, 180, -90, 90];
  let w = Math.max(24, (x1 - x0) * 1.3), hgt = Math.max(14, (y1 - y0) * 1.3);
  if (w / hgt > 1.8) hgt = w / 1.8; else w = hgt * 1.8;
  const cx = (x0 + x1) / 2, cy = (y0 + y1) / 2;
  const vb = [cx - w / 2, cy - hgt / 2, w, hgt];
  const svg = s("svg", { class: "map", id: center ? "map" : "world-map", viewBox: vb.map((v) => v.toFixed(2)).join(" "), role: "img", "aria-label": "map of places" });
  const r = w / 140;
  svg.append(...world.countries.map((c) => s("path", { class: "country", d: c.d }, s("title", {}, c.name))));
  for (const p of places) {
    const dot = s("circle", { class: "place" + (p.iri === center ? " center" : ""), cx: p.lon, cy: -p.lat, r: p.iri === center ? r * 1.5 : r, "data-iri": p.iri },
      s("title", {}, p.label + " (" + p.lat + ", " + p.lon + ")"));
    dot.addEventListener("click", () => { location.hash = entityHref(p.iri); });
    svg.append(dot);
  }
  return svg;
}

// ---- timeline: photos by month -------------------------------------------------

function timelineView(dates) {
  const months = new Map();
  for (const d of dates) {
    const m = d.date.slice(0, 7);
    if (/^\d{4}-\d{2}$/.test(m) || /^\d{4}$/.test(m)) months.set(m, (months.get(m) || 0) + d.count);
  }
  const keys = [...months.keys()].sort();
  if (!keys.length) return h("p", { class: "muted", id: "timeline-empty" }, "No dated photos.");
  const W = 640, H = 180, pad = 24;
  const bw = Math.min(40, Math.max(2, (W - 2 * pad) / keys.length - 1));
  const max = Math.max(...months.values());
  const svg = s("svg", { class: "timeline", viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": "photos by month" });
  keys.forEach((k, i) => {
    const v = months.get(k), bh = ((H - 2 * pad) * v) / max;
    svg.append(s("rect", { class: "bar", x: pad + i * (bw + 1), y: H - pad - bh, width: bw, height: bh }, s("title", {}, k + ": " + v + " photo" + (v === 1 ? "" : "s"))));
  });
  svg.append(s("text", { x: pad, y: H - 6 }, keys[0]), s("text", { x: W - pad, y: H - 6, "text-anchor": "end" }, keys[keys.length - 1]),
    s("text", { x: pad, y: 14 }, "max " + max + " per month"));
  return svg;
}

// ---- saved queries -------------------------------------------------------------

async function pageQueries(name, params) {
  const queries = await api("/api/queries");
  const list = h("ul", { id: "query-list" }, queries.map((q) =>
    h("li", {}, h("a", { href: "#/query/" + encodeURIComponent(q.name) }, q.name), " — ", q.description)));
  if (!name) {
    show(h("h1", {}, "Saved queries"), list);
    return;
  }
  const q = queries.find((x) => x.name === name);
  if (!q) throw new Error("no saved query " + name);
  const out = h("div", { id: "query-result" });
  const inputs = {};
  const form = h("form", { class: "query card", "data-name": q.name },
    h("h2", {}, q.name), h("p", {}, q.description),
    (q.params || []).map((p) => {
      inputs[p.name] = h("input", { name: p.name, id: "param-" + p.name, placeholder: p.example || p.default || "", value: params.get(p.name) || "", required: p.required || undefined });
      return h("label", {}, h("b", {}, p.name), p.required ? " (required)" : "", " ", h("span", { class: "muted" }, p.description), inputs[p.name]);
    }),
    h("button", { type: "submit", id: "run-query" }, "Run"));
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const values = {};
    for (const [k, el] of Object.entries(inputs)) if (el.value.trim() !== "") values[k] = el.value.trim();
    out.replaceChildren(h("p", { class: "muted" }, "Running…"));
    try {
      const res = await api("/api/queries/" + encodeURIComponent(q.name), { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(values) });
      const csvURL = "/api/queries/" + encodeURIComponent(q.name) + "/run?" + new URLSearchParams({ ...values, format: "csv" });
      out.replaceChildren(
        h("p", {}, res.rows.length + " row" + (res.rows.length === 1 ? "" : "s") + (res.truncated ? " (truncated)" : "") + " in " + res.ms + " ms · ",
          h("a", { id: "query-csv", class: "button secondary", href: csvURL, download: q.name + ".csv" }, "Download CSV")),
        resultTable(res));
    } catch (err) {
      out.replaceChildren(h("p", { class: "error" }, err.message));
    }
  });
  show(h("h1", {}, "Saved queries"), list, form, out);
}

function resultTable(res) {
  const cellView = (v) => {
    if (v === null || v === undefined) return "";
    if (typeof v === "string" && v.startsWith("<") && v.endsWith(">")) v = v.slice(1, -1);
    if (typeof v === "string" && v.startsWith("https://capgraph.org/id/")) return h("a", { href: entityHref(v) }, v);
    return typeof v === "object" ? JSON.stringify(v) : String(v);
  };
  return h("table", { id: "query-table" },
    h("thead", {}, h("tr", {}, res.columns.map((c) => h("th", {}, c)))),
    h("tbody", {}, res.rows.map((r) => h("tr", {}, res.columns.map((c) => h("td", {}, cellView(r[c])))))));
}

function pageExport() {
  const formats = [["nq", "N-Quads (one named graph per caption)"], ["nt", "N-Triples"], ["ttl", "Turtle"], ["jsonld", "JSON-LD"], ["csv", "CSV events view"]];
  show(h("h1", {}, "Export the graph"),
    h("ul", { id: "export-list" }, formats.map(([f, d]) => h("li", {}, h("a", { href: "/api/export?format=" + f, download: "capgraph." + f }, d)))));
}

route();
