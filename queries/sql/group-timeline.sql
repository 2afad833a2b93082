-- group-timeline: the photos that name a group, by date. The SQL twin of
-- group-timeline.gizmo.
WITH named AS (
  SELECT subject_hash AS h FROM quads
  WHERE object_hash = ANY(@group.names) AND predicate_hash IN (<https://schema.org/name>, <https://schema.org/alternateName>)
  UNION SELECT unnest(@group.iris::bytea[])
), photos AS MATERIALIZED (
  SELECT DISTINCT m.subject_hash AS h FROM named
  JOIN quads m ON m.object_hash = named.h AND m.predicate_hash = <https://schema.org/mentions>
), dated AS MATERIALIZED (
  SELECT p.h AS photo, d.object_hash AS date
  FROM photos p JOIN quads d ON d.subject_hash = p.h AND d.predicate_hash = <https://schema.org/dateCreated>
), dates AS MATERIALIZED (
  -- Each date's value is read once: photos share dates.
  SELECT d.h, v.value_string COLLATE "C" AS lex
  FROM (SELECT DISTINCT date AS h FROM dated) d
  CROSS JOIN LATERAL (SELECT value_string FROM nodes WHERE hash = d.h OFFSET 0) v
), photo_dates AS (
  SELECT dated.photo, min(dates.lex) AS date FROM dated JOIN dates ON dates.h = dated.date GROUP BY dated.photo
)
SELECT COALESCE(photo_dates.date, '') AS date,
  COALESCE((SELECT min(v.value_string COLLATE "C") FROM quads i JOIN nodes v ON v.hash = i.object_hash
    WHERE i.subject_hash = p.h AND i.predicate_hash = <https://schema.org/identifier>), '') AS id,
  n.value_string COLLATE "C" AS photo
FROM photos p JOIN nodes n ON n.hash = p.h LEFT JOIN photo_dates ON photo_dates.photo = p.h
ORDER BY date, id, photo
