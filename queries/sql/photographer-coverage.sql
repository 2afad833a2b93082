-- photographer-coverage: each photographer's photos, the places they show
-- and the first and last dates. The SQL twin of photographer-coverage.gizmo.
-- It reads the tallies every write keeps (capgraph_tallies): photos by a
-- photographer ('c'), each place they show ('p') and each date ('d', the
-- date's text; day-and-month dates name no year and are not tallied), so
-- that every photographer's row is a few index reads, not a walk of their
-- photos.
WITH named AS (
  SELECT subject_hash AS h FROM quads
  WHERE object_hash = ANY(@photographer.names) AND predicate_hash IN (<https://schema.org/name>, <https://schema.org/alternateName>)
  UNION SELECT unnest(@photographer.iris::bytea[])
), credited AS MATERIALIZED (
  -- The named one, or every person credited with a photo.
  SELECT t.a AS who, t.photos FROM capgraph_tallies t
  WHERE t.kind = 'c' AND (@photographer::text = '' OR t.a IN (SELECT h FROM named))
    AND t.a IN (SELECT subject_hash FROM quads
      WHERE predicate_hash = <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> AND object_hash = <https://schema.org/Person>)
), per AS (
  SELECT who, photos,
    (SELECT count(*) FROM capgraph_tallies t WHERE t.kind = 'p' AND t.a = who) AS places,
    convert_from((SELECT b FROM capgraph_tallies t WHERE t.kind = 'd' AND t.a = who ORDER BY b LIMIT 1), 'UTF8') AS first,
    convert_from((SELECT b FROM capgraph_tallies t WHERE t.kind = 'd' AND t.a = who ORDER BY b DESC LIMIT 1), 'UTF8') AS last
  FROM credited
)
SELECT w.value_string COLLATE "C" AS photographer,
  COALESCE((SELECT min(v.value_string COLLATE "C") FROM quads l JOIN nodes v ON v.hash = l.object_hash
    WHERE l.subject_hash = per.who AND l.predicate_hash = <https://schema.org/name>), '') AS label,
  per.photos, per.places, COALESCE(per.first COLLATE "C", '') AS first, COALESCE(per.last COLLATE "C", '') AS last
FROM per JOIN nodes w ON w.hash = per.who
ORDER BY label, photographer
