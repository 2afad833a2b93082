-- photos-in-place: photos taken in a place or anywhere inside it. The SQL
-- twin of photos-in-place.gizmo. Each photo's identifier, IRI and dates
-- come from the tables every write keeps (capgraph_photos,
-- capgraph_photo_dates): one look-up a photo, not four.
WITH RECURSIVE named AS (
  SELECT subject_hash AS h FROM quads
  WHERE object_hash = ANY(@place.names) AND predicate_hash IN (<https://schema.org/name>, <https://schema.org/alternateName>)
  UNION SELECT unnest(@place.iris::bytea[])
), within(h, depth) AS (
  SELECT h, 0 FROM named
  UNION
  SELECT q.subject_hash, w.depth + 1 FROM within w
  JOIN quads q ON q.object_hash = w.h AND q.predicate_hash IN (<https://capgraph.org/ns#locatedIn>, <https://schema.org/containedInPlace>)
  WHERE w.depth < 5
), hits AS MATERIALIZED (
  SELECT DISTINCT c.subject_hash AS photo, c.object_hash AS place
  FROM (SELECT DISTINCT h FROM within) p
  JOIN quads c ON c.object_hash = p.h AND c.predicate_hash = <https://schema.org/contentLocation>
), places AS MATERIALIZED (
  -- Labels are read once a place: photos share places.
  SELECT p.place, n.value_string COLLATE "C" AS iri,
    COALESCE((SELECT min(v.value_string COLLATE "C") FROM quads l JOIN nodes v ON v.hash = l.object_hash
      WHERE l.subject_hash = p.place AND l.predicate_hash = <https://schema.org/name>), '') AS label
  FROM (SELECT DISTINCT place FROM hits) p JOIN nodes n ON n.hash = p.place
)
SELECT COALESCE((SELECT min(d.date) FROM capgraph_photo_dates d WHERE d.graph = ph.graph), '') AS date,
  ph.id, ph.iri AS photo, places.iri AS place, places.label AS place_label
FROM hits JOIN capgraph_photos ph ON ph.photo = hits.photo JOIN places ON places.place = hits.place
ORDER BY date, id, place, photo
