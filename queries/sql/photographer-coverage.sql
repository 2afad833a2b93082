-- photographer-coverage: each photographer's photos, the places they show
-- and the first and last dates. The SQL twin of photographer-coverage.gizmo.
WITH named AS (
  SELECT subject_hash AS h FROM quads
  WHERE object_hash = ANY(@photographer.names) AND predicate_hash IN (<https://schema.org/name>, <https://schema.org/alternateName>)
  UNION SELECT unnest(@photographer.iris::bytea[])
), who AS (
  SELECT h FROM named WHERE @photographer::text <> ''
  UNION
  SELECT subject_hash FROM quads WHERE @photographer::text = ''
    AND predicate_hash = <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> AND object_hash = <https://schema.org/Person>
), photos AS (
  SELECT DISTINCT c.object_hash AS who, c.subject_hash AS photo
  FROM who JOIN quads c ON c.object_hash = who.h AND c.predicate_hash = <https://schema.org/creator>
), per AS (
  SELECT p.who, count(DISTINCT p.photo) AS photos, count(DISTINCT loc.object_hash) AS places,
    -- Day-and-month dates (--05-19) name no year: they neither start nor end a span.
    min(dv.value_string COLLATE "C") FILTER (WHERE dv.value_string NOT LIKE '--%') AS first,
    max(dv.value_string COLLATE "C") FILTER (WHERE dv.value_string NOT LIKE '--%') AS last
  FROM photos p
  LEFT JOIN quads loc ON loc.subject_hash = p.photo AND loc.predicate_hash = <https://schema.org/contentLocation>
  LEFT JOIN quads dq ON dq.subject_hash = p.photo AND dq.predicate_hash = <https://schema.org/dateCreated>
  LEFT JOIN nodes dv ON dv.hash = dq.object_hash
  GROUP BY p.who
)
SELECT w.value_string COLLATE "C" AS photographer,
  COALESCE((SELECT min(v.value_string COLLATE "C") FROM quads l JOIN nodes v ON v.hash = l.object_hash
    WHERE l.subject_hash = per.who AND l.predicate_hash = <https://schema.org/name>), '') AS label,
  per.photos, per.places, COALESCE(per.first, '') AS first, COALESCE(per.last, '') AS last
FROM per JOIN nodes w ON w.hash = per.who
ORDER BY label, photographer
