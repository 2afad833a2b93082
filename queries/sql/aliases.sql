-- aliases: the other names of entities, from their schema:alternateName
-- and from capgraph:aliasOf links. The SQL twin of aliases.gizmo.
WITH named AS (
  SELECT subject_hash AS h FROM quads
  WHERE object_hash = ANY(@name.names) AND predicate_hash IN (<https://schema.org/name>, <https://schema.org/alternateName>)
  UNION SELECT unnest(@name.iris::bytea[])
), ents AS (
  SELECT h FROM named WHERE @name::text <> ''
  UNION
  SELECT subject_hash FROM quads WHERE @name::text = ''
    AND predicate_hash = <http://www.w3.org/1999/02/22-rdf-syntax-ns#type>
    AND object_hash IN (<https://schema.org/Person>, <https://schema.org/Place>, <https://schema.org/Organization>,
      <https://schema.org/NewsMediaOrganization>, <https://schema.org/Event>)
), alternate AS MATERIALIZED (
  -- Alternate names and alias links are few (thousands at 10^5
  -- captions): read whole and hashed against the entities, rather than
  -- looked up for each of thousands of entities.
  SELECT subject_hash, object_hash FROM quads WHERE predicate_hash = <https://schema.org/alternateName>
), alias AS MATERIALIZED (
  SELECT subject_hash, object_hash FROM quads WHERE predicate_hash = <https://capgraph.org/ns#aliasOf>
), links AS (
  SELECT DISTINCT q.subject_hash AS entity, q.object_hash AS alias, 'schema:alternateName' AS via
  FROM alternate q JOIN ents ON ents.h = q.subject_hash
  UNION
  SELECT q.object_hash, q.subject_hash, 'capgraph:aliasOf'
  FROM alias q JOIN ents ON ents.h = q.subject_hash
  UNION
  SELECT q.object_hash, q.subject_hash, 'capgraph:aliasOf'
  FROM alias q JOIN ents ON ents.h = q.object_hash
)
SELECT e.value_string COLLATE "C" AS entity,
  COALESCE((SELECT min(v.value_string COLLATE "C") FROM quads l JOIN nodes v ON v.hash = l.object_hash
    WHERE l.subject_hash = links.entity AND l.predicate_hash = <https://schema.org/name>), '') AS label,
  -- An alternate name as written; an alias node by its name.
  CASE WHEN links.via = 'schema:alternateName' THEN a.value_string COLLATE "C"
    ELSE COALESCE((SELECT min(v.value_string COLLATE "C") FROM quads l JOIN nodes v ON v.hash = l.object_hash
      WHERE l.subject_hash = links.alias AND l.predicate_hash = <https://schema.org/name>), '') END AS alias,
  links.via
FROM links JOIN nodes e ON e.hash = links.entity JOIN nodes a ON a.hash = links.alias
ORDER BY label, entity, alias, via DESC
