-- Backfill results.original_sha256 from the stored original files. Where one
-- owner already holds the same file more than once (uploaded before the rule),
-- only the oldest result carries the hash: the others stay, unmarked.
UPDATE "results" AS r
SET "original_sha256" = d."sha256"
FROM (
  SELECT r2."id", b."sha256", row_number() OVER (PARTITION BY r2."owner_user_id", b."sha256" ORDER BY r2."id") AS rn
  FROM "results" r2
  JOIN "blobs" b ON b."id" = r2."original_blob_id"
) AS d
WHERE d."id" = r."id" AND d.rn = 1;
