-- photographer-coverage: each photographer's photos, the places they show
-- and the first and last dates. The SQL twin of photographer-coverage.gizmo.
WITH named AS (
  SELECT subject_hash AS h FROM quads
  WHERE object_hash = ANY(@photographer.names) AND predicate_hash IN (<https://schema.org/name>, <https://schema.org/alternateName>)
  UNION SELECT unnest(@photographer.iris::bytea[])
), credited AS MATERIALIZED (
  -- Each photo and its photographer: the named one's by index, or every
  -- person's at once.
  SELECT DISTINCT c.object_hash AS who, c.subject_hash AS photo
  FROM named JOIN quads c ON c.object_hash = named.h AND c.predicate_hash = <https://schema.org/creator>
  WHERE @photographer::text <> ''
  UNION ALL
  SELECT object_hash, subject_hash FROM quads
  WHERE @photographer::text = '' AND predicate_hash = <https://schema.org/creator>
    AND object_hash IN (SELECT subject_hash FROM quads
      WHERE predicate_hash = <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> AND object_hash = <https://schema.org/Person>)
), located AS MATERIALIZED (
  -- Every photo's places and dates, read whole (and hashed) when every
  -- photographer is wanted; else looked up by photo.
  SELECT subject_hash AS photo, object_hash AS place FROM quads
  WHERE @photographer::text = '' AND predicate_hash = <https://schema.org/contentLocation>
  UNION ALL
  SELECT c.subject_hash, c.object_hash FROM credited
  JOIN quads c ON c.subject_hash = credited.photo AND c.predicate_hash = <https://schema.org/contentLocation>
  WHERE @photographer::text <> ''
), dated AS MATERIALIZED (
  SELECT subject_hash AS photo, object_hash AS date FROM quads
  WHERE @photographer::text = '' AND predicate_hash = <https://schema.org/dateCreated>
  UNION ALL
  SELECT d.subject_hash, d.object_hash FROM credited
  JOIN quads d ON d.subject_hash = credited.photo AND d.predicate_hash = <https://schema.org/dateCreated>
  WHERE @photographer::text <> ''
), dates AS MATERIALIZED (
  -- The distinct dates' values: a few thousand look-ups, not one a photo.
  -- Day-and-month dates (--05-19) name no year: they neither start nor
  -- end a span.
  SELECT d.h, v.value_string COLLATE "C" AS lex
  FROM (SELECT DISTINCT date AS h FROM dated) d
  CROSS JOIN LATERAL (SELECT value_string FROM nodes WHERE hash = d.h OFFSET 0) v
  WHERE v.value_string NOT LIKE '--%'
), span AS (
  SELECT credited.who, min(dates.lex) AS first, max(dates.lex) AS last
  FROM credited JOIN dated ON dated.photo = credited.photo JOIN dates ON dates.h = dated.date
  GROUP BY credited.who
), per AS (
  SELECT credited.who, count(DISTINCT credited.photo) AS photos, count(DISTINCT located.place) AS places
  FROM credited LEFT JOIN located ON located.photo = credited.photo
  GROUP BY credited.who
)
SELECT w.value_string COLLATE "C" AS photographer,
  COALESCE((SELECT min(v.value_string COLLATE "C") FROM quads l JOIN nodes v ON v.hash = l.object_hash
    WHERE l.subject_hash = per.who AND l.predicate_hash = <https://schema.org/name>), '') AS label,
  per.photos, per.places, COALESCE(span.first, '') AS first, COALESCE(span.last, '') AS last
FROM per JOIN nodes w ON w.hash = per.who LEFT JOIN span ON span.who = per.who
ORDER BY label, photographer
