-- provenance: the captions and mention spans that support a fact. The SQL
-- twin of provenance.gizmo.
WITH subjects AS (
  -- Named, a caption id, or an <IRI>.
  SELECT subject_hash AS h FROM quads
  WHERE object_hash = ANY(@subject.names)
    AND predicate_hash IN (<https://schema.org/name>, <https://schema.org/alternateName>, <https://schema.org/identifier>)
  UNION SELECT unnest(@subject.iris::bytea[])
), objects AS (
  SELECT subject_hash AS h FROM quads
  WHERE object_hash = ANY(@object.names) AND predicate_hash IN (<https://schema.org/name>, <https://schema.org/alternateName>)
  UNION SELECT unnest(@object.iris::bytea[])
), rel AS (
  -- A relation from the table, a prefixed name, or a full IRI.
  SELECT CASE @relation::text
    WHEN 'photographed_by' THEN 'https://schema.org/creator'
    WHEN 'distributed_by' THEN 'https://schema.org/sourceOrganization'
    WHEN 'taken_on' THEN 'https://schema.org/dateCreated'
    WHEN 'depicts_place' THEN 'https://schema.org/contentLocation'
    WHEN 'depicts_person' THEN 'https://schema.org/about'
    WHEN 'located_in' THEN 'https://capgraph.org/ns#locatedIn'
    WHEN 'member_of' THEN 'https://schema.org/memberOf'
    WHEN 'alias_of' THEN 'https://capgraph.org/ns#aliasOf'
    WHEN 'controlled_by' THEN 'https://capgraph.org/ns#controlledBy'
    WHEN 'event_at' THEN 'https://schema.org/location'
    ELSE CASE
      WHEN @relation::text LIKE 'schema:%' THEN 'https://schema.org/' || substr(@relation::text, 8)
      WHEN @relation::text LIKE 'capgraph:%' THEN 'https://capgraph.org/ns#' || substr(@relation::text, 10)
      ELSE @relation::text END
    END AS iri
), statements AS MATERIALIZED (
  -- Each statement of the relation about a subject and an object, in its
  -- caption's graph (capgraph_statements, kept by every write).
  SELECT DISTINCT s.statement AS st, s.graph AS g, s.subject AS subj, s.object AS obj, s.confidence
  FROM subjects
  JOIN capgraph_statements s ON s.subject = subjects.h
  JOIN rel ON s.predicate = rel.iri
  JOIN objects ON objects.h = s.object
  WHERE rel.iri !~ '[<>"[:space:]]'
), roles AS (
  SELECT st, g, subj, obj, confidence, subj AS ent, 'subject' AS role FROM statements
  UNION ALL
  SELECT st, g, subj, obj, confidence, obj, 'object' FROM statements
)
-- The mentions of the entity in the statement's caption.
SELECT DISTINCT
  COALESCE((SELECT ph.id FROM capgraph_photos ph WHERE ph.graph = roles.g), '') AS id,
  COALESCE(roles.confidence::float8, 0) AS confidence,
  sn.value_string COLLATE "C" AS subject, obn.value_string COLLATE "C" AS object, roles.role,
  m.text, m.begin_index::bigint AS start, m.end_index::bigint AS "end"
FROM roles
JOIN capgraph_mentions m ON m.graph = roles.g AND m.entity = roles.ent
JOIN nodes sn ON sn.hash = roles.subj
JOIN nodes obn ON obn.hash = roles.obj
ORDER BY id, start, role, subject, object
