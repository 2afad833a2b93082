-- places-of-group: the places shown in photos that name a group. The SQL
-- twin of places-of-group.gizmo.
WITH named AS (
  SELECT subject_hash AS h FROM quads
  WHERE object_hash = ANY(@group.names) AND predicate_hash IN (<https://schema.org/name>, <https://schema.org/alternateName>)
  UNION SELECT unnest(@group.iris::bytea[])
), hits AS (
  SELECT DISTINCT c.object_hash AS place, m.subject_hash AS photo
  FROM named
  JOIN quads m ON m.object_hash = named.h AND m.predicate_hash = <https://schema.org/mentions>
  JOIN quads c ON c.subject_hash = m.subject_hash AND c.predicate_hash = <https://schema.org/contentLocation>
)
SELECT n.value_string COLLATE "C" AS place,
  COALESCE((SELECT min(v.value_string COLLATE "C") FROM quads l JOIN nodes v ON v.hash = l.object_hash
    WHERE l.subject_hash = hits.place AND l.predicate_hash = <https://schema.org/name>), '') AS place_label,
  count(*) AS photos
FROM hits JOIN nodes n ON n.hash = hits.place
GROUP BY hits.place, n.value_string
ORDER BY photos DESC, place_label, place
