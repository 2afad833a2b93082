// capgraph web page: plain JavaScript, no libraries, no network beyond this server.
//
// Every view is a hash route, and everything that shapes a view is in the
// hash, so a view can be shared, cited and reloaded:
//
//	#/?FILTERS&offset&order            the photos the filters keep
//	#/search?q=TEXT                    entities by any spelling
//	#/entity?iri=IRI&FILTERS&offset    what the photos of one entity show
//	#/queries, #/query/NAME?PARAMS     saved queries, with _sort, _order, _offset, _limit
//	#/export?FILTERS                   the selection as a download
//
// FILTERS are the research API's (docs/api.md): from, to, place, group,
// person, photographer, agency, org, event and caption. They hold across
// views: a link to another entity keeps them.
"use strict";

const SVGNS = "http://www.w3.org/2000/svg";
const FILTER_KEYS = ["from", "to", "place", "group", "person", "photographer", "agency", "org", "event", "caption"];
const ENTITY_FILTERS = ["place", "group", "person", "photographer", "agency", "org", "event"];
const KIND_NAMES = { place: "Places", group: "Armed groups", person: "People", org: "Organisations", event: "Events", photographer: "Photographers", agency: "Agencies" };
const PAGE = 10; // captions per page
const ROWS = 50; // saved-query rows per page
const view = document.getElementById("view");
const labels = new Map(); // IRI -> name, learnt from every answer, for filter chips
let world = null; // country outlines, loaded once

// h builds an HTML element: h("a", {href: "#"}, "text", child...).
function h(tag, attrs, ...kids) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else el.setAttribute(k, v === true ? "" : v);
  }
  for (const k of kids.flat()) if (k !== null && k !== undefined && k !== false) el.append(k instanceof Node ? k : String(k));
  return el;
}
function s(tag, attrs, ...kids) {
  const el = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null) continue;
    if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else el.setAttribute(k, v);
  }
  for (const k of kids.flat()) if (k !== null && k !== undefined) el.append(k instanceof Node ? k : String(k));
  return el;
}

// An APIError keeps the status, so a view can wait out a 503.
class APIError extends Error {
  constructor(message, status, retryAfter) { super(message); this.status = status; this.retryAfter = retryAfter; }
}

async function api(path, opts) {
  const res = await fetch(path, opts);
  const body = await res.json().catch(() => ({ error: res.statusText }));
  if (!res.ok) throw new APIError(body.error || res.statusText, res.status, Number(res.headers.get("Retry-After")) || 0);
  learn(body);
  return body;
}

// learn remembers the names of the entities in an answer.
function learn(v) {
  if (Array.isArray(v)) { for (const x of v) learn(x); return; }
  if (!v || typeof v !== "object") return;
  if (typeof v.iri === "string" && typeof v.label === "string") labels.set(v.iri, v.label);
  for (const x of Object.values(v)) if (x && typeof x === "object") learn(x);
}

function show(...kids) { view.replaceChildren(...kids.filter((k) => k !== null && k !== undefined)); }
function kindBadge(kind) { return h("span", { class: "kind " + kind }, kind); }
function plural(n, word) { return n.toLocaleString("en") + " " + word + (n === 1 ? "" : "s"); }
function nameOf(iri) { return labels.get(iri) || decodeURIComponent(iri.replace(/[#/]$/, "").split(/[/#]/).pop()); }

// ---- the hash: routes, filters and links ---------------------------------------

function current() {
  const hash = location.hash.slice(1) || "/";
  const at = hash.indexOf("?");
  return { path: at < 0 ? hash : hash.slice(0, at), params: new URLSearchParams(at < 0 ? "" : hash.slice(at + 1)) };
}
function filtersOf(params) {
  const f = new URLSearchParams();
  for (const k of FILTER_KEYS) for (const v of params.getAll(k)) if (v) f.append(k, v);
  return f;
}
function href(path, params) {
  const q = params ? params.toString() : "";
  return "#" + path + (q ? "?" + q : "");
}
function withParams(params, ...kv) {
  const p = new URLSearchParams(params);
  for (let i = 0; i < kv.length; i += 2) {
    if (kv[i + 1] === null || kv[i + 1] === undefined || kv[i + 1] === "") p.delete(kv[i]); else p.set(kv[i], kv[i + 1]);
  }
  return p;
}
// entityHref links to an entity's page; the filters in force stay.
function entityHref(iri, filters) {
  const p = new URLSearchParams({ iri });
  for (const [k, v] of filters || []) if (k !== "caption") p.append(k, v);
  return href("/entity", p);
}
function isPhoto(iri) { return /\/id\/photo\//.test(iri); }

// ---- routing ------------------------------------------------------------------

let routeStarted = 0;
let retry = null;

async function route() {
  const { path, params } = current();
  clearTimeout(retry);
  routeStarted = performance.now();
  view.setAttribute("data-loading", "");
  try {
    if (path === "/search") await pageSearch(params.get("q") || "");
    else if (path === "/entity") await pageEntity(params);
    else if (path === "/queries") await pageQueries(null, params);
    else if (path.startsWith("/query/")) await pageQueries(decodeURIComponent(path.slice(7)), params);
    else if (path === "/export") await pageExport(params);
    else await pageHome(params);
    document.title = (view.querySelector("h1")?.textContent || "") + " · capgraph";
  } catch (err) {
    showError(err);
  } finally {
    view.removeAttribute("data-loading");
    view.setAttribute("data-page", path);
    // What the browser test reads: how long this view took to render.
    window.capgraphRendered = { path, ms: performance.now() - routeStarted, at: performance.now() };
  }
}

function showError(err) {
  const busy = err instanceof APIError && err.status === 503;
  show(h("p", { class: "error", role: "alert" }, String(err.message || err)),
    busy ? h("p", { class: "muted" }, "Trying again in a few seconds…") : null);
  if (busy) {
    const hash = location.hash;
    retry = setTimeout(() => { if (location.hash === hash) route(); }, 1000 * (err.retryAfter || 5));
  }
}

window.addEventListener("hashchange", () => { route(); window.scrollTo(0, 0); });
document.getElementById("search-form").addEventListener("submit", (ev) => {
  ev.preventDefault();
  const q = document.getElementById("q").value.trim();
  if (q) location.hash = href("/search", new URLSearchParams({ q }));
});
// "/" focuses the search box, as in most research tools.
document.addEventListener("keydown", (ev) => {
  if (ev.key === "/" && !/^(INPUT|TEXTAREA|SELECT)$/.test(document.activeElement?.tagName)) {
    ev.preventDefault();
    document.getElementById("q").focus();
  }
});

// ---- filters --------------------------------------------------------------------

// filterBar shows the filters in force, each removable, and a date range
// form. path is the view the changed filters apply to.
function filterBar(path, params, note) {
  const filters = filtersOf(params);
  const base = new URLSearchParams(params);
  for (const k of [...FILTER_KEYS, "offset"]) base.delete(k);
  const to = (f) => { const p = new URLSearchParams(base); for (const [k, v] of f) p.append(k, v); return href(path, p); };
  const chips = [];
  for (const [k, v] of filters) {
    const rest = new URLSearchParams([...filters].filter(([k2, v2]) => !(k2 === k && v2 === v)));
    const text = k === "from" || k === "to" || k === "caption" ? k + " " + v : nameOf(v);
    chips.push(h("span", { class: "chip", "data-filter": k },
      k === "from" || k === "to" || k === "caption" ? null : kindBadge(k), " ", text,
      h("a", { href: to(rest), class: "remove", "aria-label": "remove filter " + text, title: "remove this filter" }, "×")));
  }
  const from = h("input", { name: "from", id: "filter-from", value: filters.get("from") || "", placeholder: "YYYY[-MM[-DD]]", size: 11, "aria-label": "from date" });
  const until = h("input", { name: "to", id: "filter-to", value: filters.get("to") || "", placeholder: "YYYY[-MM[-DD]]", size: 11, "aria-label": "to date" });
  const form = h("form", { class: "dates", id: "date-form" }, h("label", {}, "From ", from), h("label", {}, " to ", until), h("button", { type: "submit" }, "Apply"));
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const f = new URLSearchParams(filters);
    f.delete("from"); f.delete("to");
    if (from.value.trim()) f.set("from", from.value.trim());
    if (until.value.trim()) f.set("to", until.value.trim());
    location.hash = to(f);
  });
  return h("section", { class: "filters card", id: "filters", "aria-label": "filters" },
    h("div", { class: "chips" }, chips.length ? h("b", {}, "Filters: ") : h("span", { class: "muted" }, note || "No filter: every photo."),
      chips, chips.length ? h("a", { href: to(new URLSearchParams()), id: "clear-filters" }, "clear all") : null),
    form);
}

// addFilterHref adds an entity of a kind to the filters of the view.
function addFilterHref(path, params, kind, iri) {
  const p = new URLSearchParams(params);
  p.delete("offset");
  if (!p.getAll(kind).includes(iri)) p.append(kind, iri);
  return href(path, p);
}

// ---- pages ----------------------------------------------------------------------

async function pageHome(params) {
  const filters = filtersOf(params);
  const list = withParams(filters, "offset", params.get("offset"), "order", params.get("order"), "limit", PAGE);
  const [stats, photos, places] = await Promise.all([
    api("/api/stats"), api("/api/photos?" + list), api("/api/places?" + filters)]);
  const ents = stats.Entities || {};
  show(
    h("h1", {}, filters.size ? "Photos" : "Caption graph"),
    stats.indexed ? null : h("p", { class: "muted" }, "The server is still indexing the store; search matches exact names until it is done."),
    h("div", { class: "stats card", id: "stats" },
      h("div", {}, h("b", {}, (stats.Captions ?? 0).toLocaleString("en")), "captions"),
      ...["Person", "Place", "ArmedGroup", "Organization", "Event"].map((k) => h("div", {}, h("b", {}, (ents[k] ?? 0).toLocaleString("en")), k)),
      h("div", {}, h("b", {}, (stats.Quads ?? 0).toLocaleString("en")), "quads")),
    filterBar("/", params),
    h("div", { class: "grid" },
      h("section", { class: "card" }, h("h2", {}, "Places" + (filters.size ? " in these photos" : " with coordinates")), await mapView(places, { id: "world-map" })),
      h("section", { class: "card" }, h("h2", {}, "Photos by month"), timelineView(photos.timeline, "/", params))),
    captionsView(photos, "/", params, new Set()),
    await exportPanel(filters, stats.Captions));
}

async function pageSearch(q) {
  document.getElementById("q").value = q;
  const res = await api("/api/search?q=" + encodeURIComponent(q));
  const list = h("ul", { class: "hits", id: "results" });
  for (const hit of res.hits) {
    list.append(h("li", {},
      h("a", { class: "hit", href: entityHref(hit.iri), "data-iri": hit.iri }, hit.label), " ", kindBadge(hit.kind),
      hit.context ? h("span", { class: "context" }, " ", hit.context) : null,
      hit.photos ? h("span", { class: "muted" }, " · " + plural(hit.photos, "photo")) : null,
      (hit.spellings || []).some((sp) => sp !== hit.label) ? h("div", { class: "muted" }, h("small", {}, "matched " + hit.spellings.map((sp) => "“" + sp + "”").join(", "))) : null,
      h("div", { class: "iri" }, h("small", {}, hit.iri))));
  }
  show(h("h1", {}, "Search: ", q),
    res.indexed === false ? h("p", { class: "muted" }, "The server is still indexing; only exact names match for now.") : null,
    res.hits.length ? list : h("p", { id: "results", class: "muted" }, "Nothing found for “" + q + "”."));
}

async function pageEntity(params) {
  const iri = params.get("iri") || "";
  if (isPhoto(iri)) return pagePhoto(iri);
  const filters = filtersOf(params);
  const q = withParams(filters, "iri", iri, "offset", params.get("offset"), "order", params.get("order"), "limit", PAGE);
  const sum = await api("/api/summary?" + q);
  const e = sum.entity;
  const own = ENTITY_FILTERS.includes(e.kind) ? withParams(filters) : null;
  if (own && !own.getAll(e.kind).includes(iri)) own.append(e.kind, iri);
  const places = own ? await api("/api/places?" + own).catch(() => []) : [];
  const highlight = new Set([iri]);
  const factsCard = h("section", { class: "card", id: "facts-card" }, h("h2", {}, "Facts"), h("p", { class: "muted" }, "Reading the facts…"));
  const names = h("span", { id: "names" });
  show(
    h("h1", { id: "entity-name" }, e.label, " ", kindBadge(e.kind)),
    h("p", { class: "muted" }, h("small", { class: "iri" }, e.iri), names,
      " · ", plural(sum.photos, "photo"), filters.size ? " with these filters" : "",
      own ? h("span", {}, " · ", h("a", { href: href("/", own), id: "browse-entity" }, "browse its photos")) : null),
    filterBar("/entity", params, "No filter: every photo of " + e.label + "."),
    h("div", { class: "grid" },
      relatedView(sum, params),
      h("section", { class: "card" }, h("h2", {}, "Map"),
        places.length ? await mapView(places, { id: "map", center: iri, filters }) : h("p", { class: "muted", id: "map-empty" }, "No place with coordinates in these photos."))),
    h("section", { class: "card" }, h("h2", {}, "Photos by month"), timelineView(sum.timeline, "/entity", params)),
    captionsView(sum.captions, "/entity", params, highlight),
    factsCard,
    own ? await exportPanel(own) : null);
  // The facts come from the store, not the photo index, and can take a
  // while for an entity with many captions; the page does not wait.
  api("/api/entity?iri=" + encodeURIComponent(iri)).then((full) => {
    if (full.names.length > 1) names.append(" · also: ", full.names.slice(1).join(", "));
    factsCard.replaceChildren(h("h2", {}, "Facts"), factsView(full, filters));
  }).catch((err) => factsCard.replaceChildren(h("h2", {}, "Facts"), h("p", { class: "error" }, err.message)))
    .finally(() => factsCard.setAttribute("data-done", ""));
}

// pagePhoto is the page of one caption: its text with every mention
// marked, and what the graph says about it.
async function pagePhoto(iri) {
  const e = await api("/api/entity?iri=" + encodeURIComponent(iri));
  const c = e.captions.find((x) => x.photo === iri) || e.captions[0];
  const listed = c ? await api("/api/photos?" + new URLSearchParams({ caption: c.id })).catch(() => null) : null;
  const item = listed?.items?.[0];
  show(
    h("h1", { id: "entity-name" }, "Caption ", c ? c.id : e.label, " ", kindBadge("photo")),
    h("p", { class: "muted" }, h("small", { class: "iri" }, iri)),
    c ? captionView({ ...c, ...(item ? { credit: item.credit, entities: item.entities } : {}) }, []) : null,
    h("section", { class: "card", id: "facts-card" }, h("h2", {}, "Facts"), factsView(e, new URLSearchParams())));
}

// relatedView ranks, for each kind, the entities that share the most
// photos with the entity; each can be opened or added as a filter.
function relatedView(sum, params) {
  const out = h("section", { class: "card", id: "related" }, h("h2", {}, "Related, by shared photos"));
  const filters = filtersOf(params);
  for (const kind of ["group", "person", "place", "org", "event", "photographer", "agency"]) {
    const list = (sum.related[kind] || []).filter((r) => r.iri !== sum.entity.iri);
    if (!list.length) continue;
    const max = Math.max(...list.map((r) => r.photos));
    out.append(h("h3", {}, KIND_NAMES[kind], h("span", { class: "muted" }, " (" + (sum.distinct[kind] || list.length).toLocaleString("en") + ")")),
      h("ol", { class: "related", "data-kind": kind }, list.map((r) => h("li", {},
        h("span", { class: "bar", style: "width:" + Math.max(2, (100 * r.photos) / max).toFixed(1) + "%" }),
        h("a", { href: entityHref(r.iri, filters), class: "rel", title: r.iri }, r.label),
        h("span", { class: "count" }, r.photos.toLocaleString("en")),
        h("a", { href: addFilterHref("/entity", params, kind, r.iri), class: "add-filter", title: "only photos with " + r.label, "aria-label": "filter by " + r.label }, "+")))));
  }
  if (out.childElementCount === 1) out.append(h("p", { class: "muted" }, "No other entity in these photos."));
  return out;
}

// factsView lists the facts the store holds, the best attested first, each
// linking to the captions that state it.
function factsView(e, filters) {
  // A photo's link to the entity is a fact of its own caption; the
  // captions list shows those, so the table keeps the other facts.
  const facts = e.facts.filter((f) => !(f.inverse && isPhoto(f.value.iri || "")));
  const photoLinks = e.facts.length - facts.length;
  const note = photoLinks ? h("p", { class: "muted" }, plural(photoLinks, "photo") + " link here" + (e.truncated ? " among those read" : "") + ": their captions are listed above.") : null;
  if (!facts.length) return h("div", {}, h("p", { class: "muted" }, "No other facts."), note);
  const SHOWN = 12, CAPS = 6;
  const rows = facts.map((f, i) => h("tr", { class: i >= SHOWN ? "more" : null, hidden: i >= SHOWN },
    h("td", {}, f.inverse ? "is " + f.predicate + " of" : f.predicate),
    h("td", {}, f.value.iri && !/^https?:\/\/(sws\.geonames|www\.wikidata)/.test(f.value.iri)
      ? h("a", { href: entityHref(f.value.iri, filters), title: f.value.iri }, f.value.label) : f.value.iri ? h("a", { href: f.value.iri, rel: "external" }, f.value.label) : f.value.label),
    h("td", {}, f.confidence ? f.confidence.toFixed(2) : ""),
    h("td", {}, f.captions.slice(0, CAPS).map((id) => h("a", { href: factCaptionHref(e, id), class: "cap-ref" }, id)),
      f.captions.length > CAPS ? h("span", { class: "muted" }, " +" + (f.captions.length - CAPS)) : null)));
  const table = h("table", { id: "facts" },
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "predicate"), h("th", { scope: "col" }, "value"), h("th", { scope: "col" }, "confidence"), h("th", { scope: "col" }, "captions"))),
    h("tbody", {}, rows));
  const hidden = facts.length - SHOWN;
  const more = hidden > 0 ? h("button", { type: "button", class: "secondary", id: "more-facts", onclick: () => {
    for (const r of table.querySelectorAll("tr.more")) r.hidden = !r.hidden;
    more.textContent = more.textContent.startsWith("Show") ? "Show fewer" : "Show all " + facts.length + " facts";
  } }, "Show all " + facts.length + " facts") : null;
  return h("div", {}, table, more, note, e.truncated ? h("p", { class: "muted" }, "A large entity: these are the facts of part of its captions.") : null);
}

// factCaptionHref links a fact to its caption: the entity's view narrowed
// to that caption, with the mention marked; a photo's fact, to the photo.
function factCaptionHref(e, id) {
  if (e.kind === "photo") return href("/entity", new URLSearchParams({ iri: e.iri }));
  return href("/entity", new URLSearchParams({ iri: e.iri, caption: id }));
}

// captionsView pages the captions of a selection, with the mentions of
// the entities asked about marked.
function captionsView(page, path, params, highlight) {
  const first = page.offset + 1, last = page.offset + page.items.length;
  const nav = (id) => h("nav", { class: "pager", "aria-label": "pages of captions", id },
    page.offset > 0 ? h("a", { href: href(path, withParams(params, "offset", Math.max(0, page.offset - page.limit) || null)), rel: "prev", class: "prev" }, "‹ previous") : null,
    h("span", { class: "muted" }, page.total ? `captions ${first.toLocaleString("en")}–${last.toLocaleString("en")} of ${page.total.toLocaleString("en")}` : "no caption"),
    last < page.total ? h("a", { href: href(path, withParams(params, "offset", page.offset + page.limit)), rel: "next", class: "next" }, "next ›") : null,
    h("a", { href: href(path, withParams(params, "order", page.order === "desc" ? null : "desc", "offset", null)), class: "order" }, page.order === "desc" ? "oldest first" : "newest first"));
  return h("section", { id: "captions", "aria-label": "captions" },
    h("h2", {}, "Captions"), nav("pager-top"),
    page.items.map((c) => captionView(c, highlight, filtersOf(params))),
    page.items.length > 3 ? nav("pager-bottom") : null);
}

// captionView shows a caption with mentions marked. Offsets are Unicode
// code points, so the text is split into code points first.
function captionView(c, highlight, filters) {
  const cps = Array.from(c.text || "");
  const body = h("p", { class: "text" });
  let at = 0;
  for (const m of c.mentions || []) {
    if (m.start < at || m.end > cps.length) continue;
    body.append(cps.slice(at, m.start).join(""));
    body.append(h("mark", { title: "confidence " + m.confidence }, cps.slice(m.start, m.end).join("")));
    at = m.end;
  }
  body.append(cps.slice(at).join(""));
  const ents = (c.entities || []).filter((x) => !highlight || !highlight.has(x.iri));
  return h("article", { class: "caption", id: "caption-" + c.id, "data-id": c.id },
    body,
    h("div", { class: "meta" },
      h("a", { href: href("/entity", new URLSearchParams({ iri: c.photo })), class: "caption-id" }, c.id),
      c.date ? " · " + c.date : " · undated", c.credit ? " · " + c.credit : ""),
    ents.length ? h("div", { class: "ents" }, ents.map((x) => h("a", { href: entityHref(x.iri, filters), class: "ent " + x.kind, title: x.kind }, x.label))) : null);
}

// ---- map: equirectangular, offline outlines, clustered, zoomable ------------------

async function mapView(places, opt) {
  if (!world) {
    world = await (await fetch("/world.json")).json();
    document.getElementById("attribution").textContent = world.attribution + " Place coordinates: GeoNames (CC BY 4.0) and capgraph's curated table.";
  }
  const filters = opt.filters || new URLSearchParams();
  // Frame the places with a margin; at least 24 degrees wide.
  let [x0, x1, y0, y1] = [180, -180, 90, -90];
  for (const p of places) { x0 = Math.min(x0, p.lon); x1 = Math.max(x1, p.lon); y0 = Math.min(y0, -p.lat); y1 = Math.max(y1, -p.lat); }
  if (!places.length) [x0, x1, y0, y1] = [-180, 180, -90, 90];
  let w = Math.max(24, (x1 - x0) * 1.2), hgt = Math.max(14, (y1 - y0) * 1.2);
  if (w / hgt > 1.8) hgt = w / 1.8; else w = hgt * 1.8;
  const home = [(x0 + x1) / 2 - w / 2, (y0 + y1) / 2 - hgt / 2, w, hgt];
  let vb = home.slice();
  const svg = s("svg", { class: "map", id: opt.id, role: "img", tabindex: 0, "aria-label": "map of " + plural(places.length, "place") + "; arrow keys pan, + and - zoom" });
  const marks = s("g", { class: "marks" });
  svg.append(s("g", {}, world.countries.map((c) => s("path", { class: "country", d: c.d }, s("title", {}, c.name)))), marks);
  const weight = (p) => p.photos || 1;

  // draw clusters the places on a grid of the view's size: close places
  // become one circle showing how many, which a click opens.
  function draw() {
    svg.setAttribute("viewBox", vb.map((v) => v.toFixed(3)).join(" "));
    const cell = vb[2] / 16, r = vb[2] / 130, fs = vb[2] / 55;
    const cells = new Map();
    for (const p of places) {
      if (p.lon < vb[0] - cell || p.lon > vb[0] + vb[2] + cell || -p.lat < vb[1] - cell || -p.lat > vb[1] + vb[3] + cell) continue;
      // The entity's own place is never folded into a cluster.
      const k = p.iri === opt.center ? "center" : Math.floor(p.lon / cell) + ":" + Math.floor(-p.lat / cell);
      if (!cells.has(k)) cells.set(k, []);
      cells.get(k).push(p);
    }
    const groups = [...cells.values()].map((ps) => {
      ps.sort((a, b) => weight(b) - weight(a));
      const total = ps.reduce((t, p) => t + weight(p), 0);
      const cx = ps.reduce((t, p) => t + p.lon * weight(p), 0) / total, cy = ps.reduce((t, p) => t - p.lat * weight(p), 0) / total;
      return { ps, total, cx, cy, center: ps[0].iri === opt.center };
    }).sort((a, b) => b.center - a.center || b.total - a.total);
    const maxTotal = Math.max(1, ...groups.map((g) => g.total));
    const boxes = []; // labels drawn, so that none covers another
    const free = (b) => !boxes.some((o) => b[0] < o[2] && o[0] < b[2] && b[1] < o[3] && o[1] < b[3]);
    marks.replaceChildren();
    const labelLayer = s("g", {});
    for (const g of groups) {
      const one = g.ps.length === 1, p = g.ps[0];
      const rr = r * (1 + 1.4 * Math.sqrt(g.total / maxTotal)) * (one ? 1 : 1.25);
      const name = one ? p.label : p.label + " and " + (g.ps.length - 1) + " more";
      const what = name + (p.photos !== undefined ? ": " + plural(g.total, "photo") : "");
      const open = () => {
        if (one) { location.hash = entityHref(p.iri, filters); return; }
        vb = [g.cx - vb[2] / 6, g.cy - vb[3] / 6, vb[2] / 3, vb[3] / 3];
        draw();
      };
      const digits = String(g.ps.length).length;
      marks.append(s("g", { class: one ? "place" : "cluster", tabindex: 0, role: "link", "aria-label": what, "data-iri": one ? p.iri : null,
        onclick: open, onkeydown: (ev) => { if (ev.key === "Enter") { ev.stopPropagation(); open(); } } },
      s("circle", { class: (one ? "place" : "cluster") + (g.center ? " center" : ""), cx: g.cx, cy: g.cy, r: rr }, s("title", {}, what)),
      one ? null : s("text", { x: g.cx, y: g.cy, "font-size": rr * (digits > 2 ? 0.8 : 1.05), "text-anchor": "middle", "dominant-baseline": "central", class: "count" }, g.ps.length)));
      const text = one ? p.label : p.label + " +" + (g.ps.length - 1);
      const box = [g.cx + rr * 1.2, g.cy - fs * 0.6, g.cx + rr * 1.2 + text.length * fs * 0.55, g.cy + fs * 0.6];
      if (boxes.length < 10 && free(box)) {
        boxes.push(box);
        labelLayer.append(s("text", { class: "label", x: box[0], y: g.cy, "font-size": fs, "dominant-baseline": "central" }, text));
      }
    }
    marks.append(labelLayer);
  }
  const zoom = (f, at) => {
    const [cx, cy] = at || [vb[0] + vb[2] / 2, vb[1] + vb[3] / 2];
    const nw = Math.min(400, Math.max(0.05, vb[2] * f)), nh = nw * (vb[3] / vb[2]);
    vb = [cx - (cx - vb[0]) * (nw / vb[2]), cy - (cy - vb[1]) * (nh / vb[3]), nw, nh];
    draw();
  };
  const toMap = (ev) => { const b = svg.getBoundingClientRect(); return [vb[0] + ((ev.clientX - b.left) / b.width) * vb[2], vb[1] + ((ev.clientY - b.top) / b.height) * vb[3]]; };
  svg.addEventListener("wheel", (ev) => { ev.preventDefault(); zoom(ev.deltaY > 0 ? 1.25 : 0.8, toMap(ev)); }, { passive: false });
  let drag = null;
  svg.addEventListener("pointerdown", (ev) => { if (ev.target.closest("g.place, g.cluster")) return; drag = { x: ev.clientX, y: ev.clientY, vb: vb.slice() }; svg.setPointerCapture(ev.pointerId); });
  svg.addEventListener("pointermove", (ev) => {
    if (!drag) return;
    const b = svg.getBoundingClientRect();
    vb = [drag.vb[0] - ((ev.clientX - drag.x) / b.width) * vb[2], drag.vb[1] - ((ev.clientY - drag.y) / b.height) * vb[3], vb[2], vb[3]];
    draw();
  });
  svg.addEventListener("pointerup", () => { drag = null; });
  svg.addEventListener("keydown", (ev) => {
    const step = vb[2] / 8;
    const moves = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] };
    if (moves[ev.key]) { vb[0] += moves[ev.key][0]; vb[1] += moves[ev.key][1]; draw(); ev.preventDefault(); }
    else if (ev.key === "+" || ev.key === "=") zoom(0.7);
    else if (ev.key === "-") zoom(1 / 0.7);
  });
  draw();
  return h("div", { class: "map-box" }, svg,
    h("div", { class: "map-tools" },
      h("button", { type: "button", class: "secondary", "aria-label": "zoom in", onclick: () => zoom(0.6) }, "+"),
      h("button", { type: "button", class: "secondary", "aria-label": "zoom out", onclick: () => zoom(1 / 0.6) }, "−"),
      h("button", { type: "button", class: "secondary", "aria-label": "show all places", onclick: () => { vb = home.slice(); draw(); } }, "all")));
}

// ---- timeline: every month, empty ones too; a bar narrows the dates -----------------

function timelineView(tl, path, params) {
  const months = tl?.months || [];
  const apart = [tl?.year_only ? plural(tl.year_only, "photo") + " dated only to a year" : null,
    tl?.undated ? plural(tl.undated, "undated photo") : null].filter(Boolean).join(", ");
  if (!months.length) return h("p", { class: "muted", id: "timeline-empty" }, "No photo dated to a month." + (apart ? " " + apart + "." : ""));
  const W = 640, H = 170, pad = 26;
  const step = (W - 2 * pad) / months.length, bw = Math.max(1, Math.min(36, step - (step > 3 ? 1 : 0)));
  const max = Math.max(1, ...months.map((m) => m.photos));
  const svg = s("svg", { class: "timeline", viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": `photos by month, ${months[0].month} to ${months[months.length - 1].month}` });
  const p = new URLSearchParams(params);
  p.delete("offset");
  months.forEach((m, i) => {
    const bh = ((H - 2 * pad) * m.photos) / max, x = pad + i * step;
    const a = s("a", { href: href(path, withParams(p, "from", m.month, "to", m.month)), "aria-label": m.month + ": " + plural(m.photos, "photo") },
      s("rect", { class: "slot", x, y: pad, width: Math.max(step, 1), height: H - 2 * pad }),
      s("rect", { class: "bar" + (m.photos ? "" : " empty"), x, y: H - pad - bh, width: bw, height: bh, "data-month": m.month }),
      s("title", {}, m.month + ": " + plural(m.photos, "photo")));
    if (months.length > 24) a.setAttribute("tabindex", "-1");
    svg.append(a);
    if (m.month.endsWith("-01") || i === 0) {
      const every = Math.ceil(months.length / 12 / 12); // years between labels
      const year = Number(m.month.slice(0, 4));
      if (months.length <= 24 || year % every === 0) svg.append(s("text", { x, y: H - 8 }, months.length <= 24 ? m.month : String(year)));
    }
  });
  svg.append(s("text", { x: pad, y: 14 }, "max " + max.toLocaleString("en") + " per month"));
  return h("div", {}, svg, apart ? h("p", { class: "muted" }, h("small", {}, "Not shown: " + apart + ".")) : null);
}

// ---- export of the selection ------------------------------------------------------------

async function exportPanel(filters, total) {
  let n = total;
  if (filters.size) {
    const res = await fetch("/api/export?" + withParams(filters, "format", "nq"), { method: "HEAD" });
    n = res.ok ? Number(res.headers.get("X-Capgraph-Captions")) : null;
  }
  const formats = [["nq", "N-Quads (one named graph per caption)"], ["nt", "N-Triples"], ["ttl", "Turtle"], ["jsonld", "JSON-LD"], ["csv", "CSV events view"]];
  return h("section", { class: "card", id: "export" }, h("h2", {}, "Export"),
    h("p", { id: "export-size" }, n === null || n === undefined ? "The size of this selection is not known yet." :
      (filters.size ? "The photos these filters keep: " : "The whole graph: ") + plural(n, "caption") + "."),
    h("ul", { id: "export-list" }, formats.map(([f, d]) => h("li", {},
      h("a", { href: "/api/export?" + withParams(filters, "format", f), download: "capgraph." + f, "data-format": f }, d)))));
}

async function pageExport(params) {
  const filters = filtersOf(params);
  const stats = await api("/api/stats");
  show(h("h1", {}, filters.size ? "Export the selection" : "Export the graph"), filterBar("/export", params), await exportPanel(filters, stats.Captions));
}

// ---- saved queries -------------------------------------------------------------------------

async function pageQueries(name, params) {
  const queries = await api("/api/queries");
  const list = h("ul", { id: "query-list" }, queries.map((q) =>
    h("li", {}, h("a", { href: "#/query/" + encodeURIComponent(q.name), "aria-current": q.name === name ? "page" : null }, q.name), " — ", q.description)));
  if (!name) {
    show(h("h1", {}, "Saved queries"), list);
    return;
  }
  const q = queries.find((x) => x.name === name);
  if (!q) throw new Error("no saved query " + name);
  const inputs = {};
  const form = h("form", { class: "query card", "data-name": q.name },
    h("h2", {}, q.name), h("p", {}, q.description),
    (q.params || []).map((p) => {
      inputs[p.name] = h("input", { name: p.name, id: "param-" + p.name, placeholder: p.example || p.default || "", value: params.get(p.name) || "", required: p.required || undefined });
      return h("label", {}, h("b", {}, p.name), p.required ? " (required)" : "", " ", h("span", { class: "muted" }, p.description), inputs[p.name]);
    }),
    h("button", { type: "submit", id: "run-query" }, "Run"));
  // Running puts the query and its parameters in the URL; the URL runs it.
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const p = new URLSearchParams();
    for (const [k, el] of Object.entries(inputs)) if (el.value.trim() !== "") p.set(k, el.value.trim());
    for (const k of ["_sort", "_order"]) if (params.get(k)) p.set(k, params.get(k));
    p.set("_run", "1");
    const next = href("/query/" + encodeURIComponent(q.name), p);
    if (location.hash === next) route(); else location.hash = next;
  });
  const out = h("div", { id: "query-result" });
  show(h("h1", {}, "Saved queries"), list, form, out);
  const values = new URLSearchParams();
  for (const p of q.params || []) if (params.get(p.name)) values.set(p.name, params.get(p.name));
  if (!params.has("_run") && !values.size) return;
  const shape = withParams(values, "_sort", params.get("_sort"), "_order", params.get("_order"), "_offset", params.get("_offset") || 0, "_limit", ROWS);
  const res = await api("/api/queries/" + encodeURIComponent(q.name) + "/run?" + shape).catch((err) => err);
  if (res instanceof Error) {
    out.replaceChildren(h("p", { class: "error", role: "alert" }, res.message));
    return;
  }
  const csv = "/api/queries/" + encodeURIComponent(q.name) + "/run?" + withParams(values, "_sort", params.get("_sort"), "_order", params.get("_order"), "format", "csv");
  out.replaceChildren(resultView(q, res, params), h("p", {}, h("a", { id: "query-csv", class: "button secondary", href: csv, download: q.name + ".csv" }, "Download CSV")));
}

// resultView is a page of a saved query's rows: capgraph's IRIs shown by
// name (the IRI on hover, or in the cell with "show IRIs"), columns sorted
// by a click on their heading.
function resultView(q, res, params) {
  const base = "/query/" + encodeURIComponent(q.name);
  const sort = params.get("_sort"), desc = params.get("_order") === "desc";
  const iri = (v) => typeof v === "string" ? v.replace(/^<(.*)>$/, "$1") : v;
  const cell = (v) => {
    if (v === null || v === undefined) return "";
    const i = iri(v);
    if (typeof i === "string" && res.labels && res.labels[i] !== undefined) {
      return h("span", {}, h("a", { href: entityHref(i), title: i }, res.labels[i]), h("small", { class: "iri" }, " " + i));
    }
    if (typeof i === "string" && /^https?:\/\//.test(i)) return h("a", { href: i, rel: "external" }, i);
    return typeof v === "object" ? JSON.stringify(v) : String(v);
  };
  const head = res.columns.map((c) => {
    const on = sort === c;
    const next = withParams(params, "_sort", c, "_order", on && !desc ? "desc" : null, "_offset", null, "_run", "1");
    return h("th", { scope: "col", "aria-sort": on ? (desc ? "descending" : "ascending") : null },
      h("a", { href: href(base, next), class: "sort", title: "sort by " + c }, c, on ? (desc ? " ▼" : " ▲") : ""));
  });
  const table = h("table", { id: "query-table", class: "hide-iris" },
    h("thead", {}, h("tr", {}, head)),
    h("tbody", {}, res.rows.map((r) => h("tr", {}, res.columns.map((c) => h("td", {}, cell(r[c])))))));
  const off = res.offset || 0, last = off + res.rows.length;
  const page = (o) => href(base, withParams(params, "_offset", o || null, "_run", "1"));
  const toggle = h("input", { type: "checkbox", id: "show-iris", onchange: (ev) => table.classList.toggle("hide-iris", !ev.target.checked) });
  return h("div", {},
    h("p", { id: "query-summary" }, res.total ? `rows ${(off + 1).toLocaleString("en")}–${last.toLocaleString("en")} of ${res.total.toLocaleString("en")}` : "no row",
      res.truncated ? " (the query stopped at its row limit)" : "", " in " + Math.round(res.ms) + " ms"),
    h("nav", { class: "pager", "aria-label": "pages of rows" },
      off > 0 ? h("a", { href: page(Math.max(0, off - ROWS)), rel: "prev", class: "prev" }, "‹ previous") : null,
      last < res.total ? h("a", { href: page(off + ROWS), rel: "next", class: "next" }, "next ›") : null,
      h("label", {}, toggle, " show IRIs")),
    h("div", { class: "table-box" }, table));
}

route();
