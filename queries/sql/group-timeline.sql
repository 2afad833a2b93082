-- group-timeline: the photos that name a group, by date. The SQL twin of
-- group-timeline.gizmo.
WITH named AS (
  SELECT subject_hash AS h FROM quads
  WHERE object_hash = ANY(@group.names) AND predicate_hash IN (<https://schema.org/name>, <https://schema.org/alternateName>)
  UNION SELECT unnest(@group.iris::bytea[])
), photos AS (
  SELECT DISTINCT m.subject_hash AS h FROM named
  JOIN quads m ON m.object_hash = named.h AND m.predicate_hash = <https://schema.org/mentions>
)
SELECT COALESCE((SELECT min(v.value_string COLLATE "C") FROM quads d JOIN nodes v ON v.hash = d.object_hash
    WHERE d.subject_hash = p.h AND d.predicate_hash = <https://schema.org/dateCreated>), '') AS date,
  COALESCE((SELECT min(v.value_string COLLATE "C") FROM quads i JOIN nodes v ON v.hash = i.object_hash
    WHERE i.subject_hash = p.h AND i.predicate_hash = <https://schema.org/identifier>), '') AS id,
  n.value_string COLLATE "C" AS photo
FROM photos p JOIN nodes n ON n.hash = p.h
ORDER BY date, id, photo
