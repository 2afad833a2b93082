-- groups-in-place: armed groups named in photos taken in a place or
-- anywhere inside it. The SQL twin of groups-in-place.gizmo.
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
), photos AS MATERIALIZED (
  -- The place's photos, then what they mention, then which of those are
  -- groups: MATERIALIZED keeps that order, where PostgreSQL would start
  -- from every group's mentions.
  SELECT DISTINCT c.subject_hash AS photo
  FROM (SELECT DISTINCT h FROM within) p
  JOIN quads c ON c.object_hash = p.h AND c.predicate_hash = <https://schema.org/contentLocation>
), mentioned AS MATERIALIZED (
  SELECT DISTINCT m.object_hash AS grp, photos.photo
  FROM photos JOIN quads m ON m.subject_hash = photos.photo AND m.predicate_hash = <https://schema.org/mentions>
), hits AS (
  SELECT grp, photo FROM mentioned WHERE EXISTS (SELECT 1 FROM quads t WHERE t.subject_hash = mentioned.grp
    AND t.predicate_hash = <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> AND t.object_hash = <https://capgraph.org/ns#ArmedGroup>)
)
SELECT n.value_string COLLATE "C" AS "group",
  COALESCE((SELECT min(v.value_string COLLATE "C") FROM quads l JOIN nodes v ON v.hash = l.object_hash
    WHERE l.subject_hash = hits.grp AND l.predicate_hash = <https://schema.org/name>), '') AS group_label,
  count(*) AS photos
FROM hits JOIN nodes n ON n.hash = hits.grp
GROUP BY hits.grp, n.value_string
ORDER BY photos DESC, group_label, "group"
