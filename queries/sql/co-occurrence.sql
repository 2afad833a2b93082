-- co-occurrence: armed groups and the places of the photos that name
-- them, with photo counts. The SQL twin of co-occurrence.gizmo.
WITH named AS (
  SELECT subject_hash AS h FROM quads
  WHERE object_hash = ANY(@group.names) AND predicate_hash IN (<https://schema.org/name>, <https://schema.org/alternateName>)
  UNION SELECT unnest(@group.iris::bytea[])
), groups AS (
  SELECT subject_hash AS h FROM quads
  WHERE predicate_hash = <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> AND object_hash = <https://capgraph.org/ns#ArmedGroup>
), named_pairs AS (
  -- One count a photo and place it shows, as the Gizmo walk counts
  -- paths.
  SELECT m.object_hash AS grp, c.object_hash AS place, count(*) AS photos
  FROM named
  JOIN quads m ON m.object_hash = named.h AND m.predicate_hash = <https://schema.org/mentions>
  JOIN quads c ON c.subject_hash = m.subject_hash AND c.predicate_hash = <https://schema.org/contentLocation>
  WHERE @group::text <> ''
  GROUP BY m.object_hash, c.object_hash
), tallied AS NOT MATERIALIZED (
  -- Every group's: the counts every write keeps (capgraph_tallies), read
  -- from the highest down.
  SELECT t.a AS grp, t.b AS place, t.photos FROM capgraph_tallies t
  WHERE @group::text = '' AND t.kind = 'm' AND t.a IN (SELECT h FROM groups)
), top AS (
  -- Only pairs that can make the cut are labelled: the cut is the count
  -- of the last row the limit keeps (ties with it sort by label).
  SELECT * FROM named_pairs
  WHERE COALESCE(@limit::bigint, 0) = 0
    OR photos >= COALESCE((SELECT photos FROM named_pairs ORDER BY photos DESC OFFSET @limit::bigint - 1 LIMIT 1), 0)
  UNION ALL
  SELECT * FROM tallied
  WHERE COALESCE(@limit::bigint, 0) = 0
    OR photos >= COALESCE((SELECT photos FROM tallied ORDER BY photos DESC OFFSET @limit::bigint - 1 LIMIT 1), 0)
)
SELECT g.value_string COLLATE "C" AS "group",
  COALESCE((SELECT min(v.value_string COLLATE "C") FROM quads l JOIN nodes v ON v.hash = l.object_hash
    WHERE l.subject_hash = top.grp AND l.predicate_hash = <https://schema.org/name>), '') AS group_label,
  p.value_string COLLATE "C" AS place,
  COALESCE((SELECT min(v.value_string COLLATE "C") FROM quads l JOIN nodes v ON v.hash = l.object_hash
    WHERE l.subject_hash = top.place AND l.predicate_hash = <https://schema.org/name>), '') AS place_label,
  top.photos
FROM top JOIN nodes g ON g.hash = top.grp JOIN nodes p ON p.hash = top.place
ORDER BY photos DESC, group_label, place_label, "group", place
LIMIT NULLIF(@limit::bigint, 0)
