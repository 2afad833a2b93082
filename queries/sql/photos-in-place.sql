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
), hits AS (
  SELECT DISTINCT c.subject_hash AS photo, c.object_hash AS place
  FROM (SELECT DISTINCT h FROM within) p
  JOIN quads c ON c.object_hash = p.h AND c.predicate_hash = <https://schema.org/contentLocation>
)
SELECT COALESCE((SELECT min(v.value_string COLLATE "C") FROM quads d JOIN nodes v ON v.hash = d.object_hash
    WHERE d.subject_hash = hits.photo AND d.predicate_hash = <https://schema.org/dateCreated>), '') AS date,
  COALESCE((SELECT min(v.value_string COLLATE "C") FROM quads i JOIN nodes v ON v.hash = i.object_hash
    WHERE i.subject_hash = hits.photo AND i.predicate_hash = <https://schema.org/identifier>), '') AS id,
  ph.value_string COLLATE "C" AS photo,
  pl.value_string COLLATE "C" AS place,
  COALESCE((SELECT min(v.value_string COLLATE "C") FROM quads l JOIN nodes v ON v.hash = l.object_hash
    WHERE l.subject_hash = hits.place AND l.predicate_hash = <https://schema.org/name>), '') AS place_label
FROM hits JOIN nodes ph ON ph.hash = hits.photo JOIN nodes pl ON pl.hash = hits.place
ORDER BY date, id, place, photo
