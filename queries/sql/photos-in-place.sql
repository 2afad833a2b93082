-- photos-in-place: photos taken in a place or anywhere inside it. The SQL
-- twin of photos-in-place.gizmo.
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
), dated AS MATERIALIZED (
  SELECT p.photo, d.object_hash AS date
  FROM (SELECT DISTINCT photo FROM hits) p
  JOIN quads d ON d.subject_hash = p.photo AND d.predicate_hash = <https://schema.org/dateCreated>
), dates AS MATERIALIZED (
  -- Values and labels are read once each: photos share dates and places.
  SELECT d.h, v.value_string COLLATE "C" AS lex
  FROM (SELECT DISTINCT date AS h FROM dated) d
  CROSS JOIN LATERAL (SELECT value_string FROM nodes WHERE hash = d.h OFFSET 0) v
), photo_dates AS (
  SELECT dated.photo, min(dates.lex) AS date FROM dated JOIN dates ON dates.h = dated.date GROUP BY dated.photo
), places AS MATERIALIZED (
  SELECT p.place, n.value_string COLLATE "C" AS iri,
    COALESCE((SELECT min(v.value_string COLLATE "C") FROM quads l JOIN nodes v ON v.hash = l.object_hash
      WHERE l.subject_hash = p.place AND l.predicate_hash = <https://schema.org/name>), '') AS label
  FROM (SELECT DISTINCT place FROM hits) p JOIN nodes n ON n.hash = p.place
)
SELECT COALESCE(photo_dates.date, '') AS date,
  COALESCE((SELECT min(v.value_string COLLATE "C") FROM quads i JOIN nodes v ON v.hash = i.object_hash
    WHERE i.subject_hash = hits.photo AND i.predicate_hash = <https://schema.org/identifier>), '') AS id,
  ph.value_string COLLATE "C" AS photo, places.iri AS place, places.label AS place_label
FROM hits JOIN nodes ph ON ph.hash = hits.photo JOIN places ON places.place = hits.place
LEFT JOIN photo_dates ON photo_dates.photo = hits.photo
ORDER BY date, id, place, photo
