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
  -- caption's graph.
  SELECT DISTINCT s.subject_hash AS st, s.label_hash AS g, s.object_hash AS subj, o.object_hash AS obj
  FROM subjects
  JOIN quads s ON s.object_hash = subjects.h AND s.predicate_hash = <http://www.w3.org/1999/02/22-rdf-syntax-ns#subject>
  JOIN quads p ON p.subject_hash = s.subject_hash AND p.predicate_hash = <http://www.w3.org/1999/02/22-rdf-syntax-ns#predicate>
  JOIN nodes pn ON pn.hash = p.object_hash AND pn.iri
  JOIN rel ON pn.value_string = rel.iri
  JOIN quads o ON o.subject_hash = s.subject_hash AND o.predicate_hash = <http://www.w3.org/1999/02/22-rdf-syntax-ns#object>
  JOIN objects ON objects.h = o.object_hash
  WHERE rel.iri !~ '[<>"[:space:]]'
), roles AS (
  SELECT st, g, subj, obj, subj AS ent, 'subject' AS role FROM statements
  UNION ALL
  SELECT st, g, subj, obj, obj, 'object' FROM statements
), mentions AS MATERIALIZED (
  -- Every mention of the statements' entities, with its caption graph,
  -- read once and joined by graph: a country is mentioned in tens of
  -- thousands of captions, and a look-up by entity for each statement
  -- would read them all each time.
  SELECT m.subject_hash AS m, m.object_hash AS ent, m.label_hash AS g
  FROM (SELECT subj AS h FROM statements UNION SELECT obj FROM statements) e
  JOIN quads m ON m.object_hash = e.h AND m.predicate_hash = <http://www.w3.org/2005/11/its/rdf#taIdentRef>
), spans AS (
  -- The mentions of the entity in the statement's caption.
  SELECT roles.*, mentions.m
  FROM roles JOIN mentions ON mentions.ent = roles.ent AND mentions.g = roles.g
)
SELECT DISTINCT
  COALESCE((SELECT min(v.value_string COLLATE "C") FROM quads w
    JOIN quads i ON i.subject_hash = w.object_hash AND i.predicate_hash = <https://schema.org/identifier>
    JOIN nodes v ON v.hash = i.object_hash
    WHERE w.subject_hash = spans.g AND w.predicate_hash = <http://www.w3.org/ns/prov#wasDerivedFrom>), '') AS id,
  COALESCE((SELECT v.value_string::float8 FROM quads c JOIN nodes v ON v.hash = c.object_hash
    WHERE c.subject_hash = spans.st AND c.predicate_hash = <https://capgraph.org/ns#confidence> LIMIT 1), 0) AS confidence,
  sn.value_string COLLATE "C" AS subject, obn.value_string COLLATE "C" AS object, spans.role,
  tv.value_string COLLATE "C" AS text, bv.value_string::bigint AS start, ev.value_string::bigint AS "end"
FROM spans
JOIN nodes sn ON sn.hash = spans.subj
JOIN nodes obn ON obn.hash = spans.obj
JOIN quads t ON t.subject_hash = spans.m AND t.predicate_hash = <http://persistence.uni-leipzig.org/nlp2rdf/ontologies/nif-core#anchorOf>
JOIN nodes tv ON tv.hash = t.object_hash
JOIN quads b ON b.subject_hash = spans.m AND b.predicate_hash = <http://persistence.uni-leipzig.org/nlp2rdf/ontologies/nif-core#beginIndex>
JOIN nodes bv ON bv.hash = b.object_hash
JOIN quads e ON e.subject_hash = spans.m AND e.predicate_hash = <http://persistence.uni-leipzig.org/nlp2rdf/ontologies/nif-core#endIndex>
JOIN nodes ev ON ev.hash = e.object_hash
ORDER BY id, start, role, subject, object
