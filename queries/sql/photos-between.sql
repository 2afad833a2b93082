-- photos-between: photos dated between two days, optionally in a place or
-- anywhere inside it. The SQL twin of photos-between.gizmo. A photo dated
-- by year or month only counts when that year or month overlaps the range.
-- Unlike the Gizmo query, it takes ranges of any length.
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
), dated AS MATERIALIZED (
  -- The distinct dates (a few thousand), then their values: not the
  -- values of every node.
  SELECT DISTINCT object_hash AS h FROM quads WHERE predicate_hash = <https://schema.org/dateCreated>
), dates AS MATERIALIZED (
  SELECT dated.h AS hash, v.value_string COLLATE "C" AS lex
  -- OFFSET 0 keeps the look-up by hash: flattened, PostgreSQL would scan
  -- every node for the date filter.
  FROM dated CROSS JOIN LATERAL (SELECT value_string, datatype FROM nodes WHERE hash = dated.h OFFSET 0) v
  WHERE @from::text <= @to::text AND (
    v.datatype = 'http://www.w3.org/2001/XMLSchema#date' AND v.value_string BETWEEN @from::text AND @to::text
    OR v.datatype = 'http://www.w3.org/2001/XMLSchema#gYearMonth' AND v.value_string BETWEEN left(@from::text, 7) AND left(@to::text, 7)
    OR v.datatype = 'http://www.w3.org/2001/XMLSchema#gYear' AND v.value_string BETWEEN left(@from::text, 4) AND left(@to::text, 4))
), hits AS (
  SELECT q.subject_hash AS photo, min(dates.lex) AS date
  FROM dates JOIN quads q ON q.object_hash = dates.hash AND q.predicate_hash = <https://schema.org/dateCreated>
  WHERE @place::text = '' OR EXISTS (SELECT 1 FROM quads c WHERE c.subject_hash = q.subject_hash
    AND c.predicate_hash = <https://schema.org/contentLocation> AND c.object_hash IN (SELECT h FROM within))
  GROUP BY q.subject_hash
)
SELECT hits.date,
  COALESCE((SELECT min(v.value_string COLLATE "C") FROM quads i JOIN nodes v ON v.hash = i.object_hash
    WHERE i.subject_hash = hits.photo AND i.predicate_hash = <https://schema.org/identifier>), '') AS id,
  ph.value_string COLLATE "C" AS photo
FROM hits JOIN nodes ph ON ph.hash = hits.photo
ORDER BY date, id, photo
