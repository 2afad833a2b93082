-- photos-between: photos dated between two days, optionally in a place or
-- anywhere inside it. The SQL twin of photos-between.gizmo. A photo dated
-- by year or month only counts when that year or month overlaps the range.
-- Unlike the Gizmo query, it takes ranges of any length. The dates are
-- read by range from the table every write keeps (capgraph_photo_dates).
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
), hits AS (
  SELECT d.graph, min(d.date) AS date FROM capgraph_photo_dates d
  WHERE @from::text <= @to::text AND (
    d.datatype = 'http://www.w3.org/2001/XMLSchema#date' AND d.date BETWEEN @from::text AND @to::text
    OR d.datatype = 'http://www.w3.org/2001/XMLSchema#gYearMonth' AND d.date BETWEEN left(@from::text, 7) AND left(@to::text, 7)
    OR d.datatype = 'http://www.w3.org/2001/XMLSchema#gYear' AND d.date BETWEEN left(@from::text, 4) AND left(@to::text, 4))
  GROUP BY d.graph
)
SELECT hits.date, ph.id, ph.iri AS photo
FROM hits CROSS JOIN LATERAL (
  -- OFFSET 0 keeps the look-up by graph: a hash join would read every
  -- photo.
  SELECT id, iri FROM capgraph_photos ph WHERE ph.graph = hits.graph
    AND (@place::text = '' OR ph.places && ARRAY(SELECT h FROM within)) OFFSET 0) ph
ORDER BY date, id, photo
