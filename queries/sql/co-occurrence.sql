-- co-occurrence: armed groups and the places of the photos that name
-- them, with photo counts. The SQL twin of co-occurrence.gizmo.
WITH named AS (
  SELECT subject_hash AS h FROM quads
  WHERE object_hash = ANY(@group.names) AND predicate_hash IN (<https://schema.org/name>, <https://schema.org/alternateName>)
  UNION SELECT unnest(@group.iris::bytea[])
), groups AS (
  SELECT h FROM named WHERE @group::text <> ''
  UNION
  SELECT subject_hash FROM quads WHERE @group::text = ''
    AND predicate_hash = <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> AND object_hash = <https://capgraph.org/ns#ArmedGroup>
), pairs AS (
  -- One a photo and place it shows, as the Gizmo walk counts paths.
  SELECT m.object_hash AS grp, c.object_hash AS place, count(*) AS photos
  FROM groups
  JOIN quads m ON m.object_hash = groups.h AND m.predicate_hash = <https://schema.org/mentions>
  JOIN quads c ON c.subject_hash = m.subject_hash AND c.predicate_hash = <https://schema.org/contentLocation>
  GROUP BY m.object_hash, c.object_hash
)
SELECT g.value_string COLLATE "C" AS "group",
  COALESCE((SELECT min(v.value_string COLLATE "C") FROM quads l JOIN nodes v ON v.hash = l.object_hash
    WHERE l.subject_hash = pairs.grp AND l.predicate_hash = <https://schema.org/name>), '') AS group_label,
  p.value_string COLLATE "C" AS place,
  COALESCE((SELECT min(v.value_string COLLATE "C") FROM quads l JOIN nodes v ON v.hash = l.object_hash
    WHERE l.subject_hash = pairs.place AND l.predicate_hash = <https://schema.org/name>), '') AS place_label,
  pairs.photos
FROM pairs JOIN nodes g ON g.hash = pairs.grp JOIN nodes p ON p.hash = pairs.place
ORDER BY photos DESC, group_label, place_label, "group", place
LIMIT NULLIF(@limit, 0)
