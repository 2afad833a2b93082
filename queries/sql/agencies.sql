-- agencies: news agencies with their kept photo counts and how many
-- photographers they credit. The SQL twin of agencies.gizmo.
SELECT a.value_string COLLATE "C" AS agency,
  COALESCE((SELECT min(v.value_string COLLATE "C") FROM quads l JOIN nodes v ON v.hash = l.object_hash
    WHERE l.subject_hash = t.h AND l.predicate_hash = <https://schema.org/name>), '') AS label,
  c.value_string::bigint AS photos,
  (SELECT count(*) FROM quads cr WHERE cr.object_hash = t.h AND cr.predicate_hash = <https://capgraph.org/ns#agency>) AS photographers
FROM (SELECT DISTINCT subject_hash AS h FROM quads
  WHERE predicate_hash = <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> AND object_hash = <https://schema.org/NewsMediaOrganization>) t
JOIN nodes a ON a.hash = t.h
JOIN quads pc ON pc.subject_hash = t.h AND pc.predicate_hash = <https://capgraph.org/ns#photoCount>
JOIN nodes c ON c.hash = pc.object_hash
ORDER BY photos DESC, label, agency
