-- entity: everything the graph says about an entity: its descriptions and
-- facts, what points at it, and how many photos do, by predicate. The SQL
-- twin of entity.gizmo.
WITH ents AS (
  SELECT subject_hash AS h FROM quads
  WHERE object_hash = ANY(@name.names) AND predicate_hash IN (<https://schema.org/name>, <https://schema.org/alternateName>)
  UNION SELECT unnest(@name.iris::bytea[])
), links AS (
  -- What the entity says, but the counts and credits the store keeps.
  SELECT DISTINCT q.subject_hash AS entity, q.predicate_hash AS pred, '' AS dir, q.object_hash AS node, false AS photo
  FROM ents JOIN quads q ON q.subject_hash = ents.h
  WHERE q.predicate_hash NOT IN (<https://capgraph.org/ns#photoCount>, <https://capgraph.org/ns#agency>, <https://capgraph.org/ns#photographer>)
  UNION
  -- What points at it, but the mention and statement nodes of every
  -- caption (IRIs with a fragment), and whether each is a photo.
  SELECT i.entity, i.pred, '^', i.node, EXISTS (SELECT 1 FROM quads t WHERE t.subject_hash = i.node
    AND t.predicate_hash = <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> AND t.object_hash = <https://schema.org/Photograph>)
  FROM (SELECT DISTINCT q.object_hash AS entity, q.predicate_hash AS pred, q.subject_hash AS node
    FROM ents JOIN quads q ON q.object_hash = ents.h
    WHERE q.predicate_hash NOT IN (<http://www.w3.org/2005/11/its/rdf#taIdentRef>, <http://www.w3.org/1999/02/22-rdf-syntax-ns#subject>,
      <http://www.w3.org/1999/02/22-rdf-syntax-ns#object>, <https://capgraph.org/ns#photoCount>, <https://capgraph.org/ns#agency>,
      <https://capgraph.org/ns#photographer>)) i
  JOIN nodes n ON n.hash = i.node
  WHERE strpos(n.value_string, '#') = 0
), rows AS (
  -- A photo pointing at the entity counts in its predicate's row.
  SELECT entity, pred, dir, CASE WHEN photo THEN NULL ELSE node END AS node, count(*) FILTER (WHERE photo) AS photos
  FROM links GROUP BY entity, pred, dir, CASE WHEN photo THEN NULL ELSE node END
)
SELECT e.value_string COLLATE "C" AS entity,
  COALESCE((SELECT min(v.value_string COLLATE "C") FROM quads l JOIN nodes v ON v.hash = l.object_hash
    WHERE l.subject_hash = rows.entity AND l.predicate_hash = <https://schema.org/name>), '') AS label,
  (rows.dir || CASE
    WHEN p.value_string LIKE 'https://schema.org/%' THEN 'schema:' || substr(p.value_string, 20)
    WHEN p.value_string LIKE 'https://capgraph.org/ns#%' THEN 'capgraph:' || substr(p.value_string, 25)
    WHEN p.value_string LIKE 'http://www.w3.org/1999/02/22-rdf-syntax-ns#%' THEN 'rdf:' || substr(p.value_string, 44)
    WHEN p.value_string LIKE 'http://www.w3.org/2002/07/owl#%' THEN 'owl:' || substr(p.value_string, 31)
    WHEN p.value_string LIKE 'http://www.opengis.net/ont/geosparql#%' THEN 'geo:' || substr(p.value_string, 38)
    WHEN p.value_string LIKE 'http://www.w3.org/2003/01/geo/wgs84_pos#%' THEN 'wgs:' || substr(p.value_string, 41)
    ELSE p.value_string END) COLLATE "C" AS relation,
  COALESCE(v.value_string, v.value_int::text, v.value_float::text, v.value_bool::text, '') COLLATE "C" AS value,
  CASE WHEN v.iri THEN COALESCE((SELECT min(n.value_string COLLATE "C") FROM quads l JOIN nodes n ON n.hash = l.object_hash
    WHERE l.subject_hash = rows.node AND l.predicate_hash = <https://schema.org/name>), '') ELSE '' END AS value_label,
  rows.photos
FROM rows JOIN nodes e ON e.hash = rows.entity JOIN nodes p ON p.hash = rows.pred
LEFT JOIN nodes v ON v.hash = rows.node
WHERE rows.node IS NOT NULL OR rows.photos > 0
ORDER BY entity, relation, value
