-- Hourly statistics of what visitors submit (issue 13); see
-- server/postgres/migrations/00016_stats.sql for the tables' meaning.
-- Timestamps are microseconds since the epoch: the hour of captured_at is
-- captured_at minus its remainder modulo 3,600,000,000.

-- +goose Up
ALTER TABLE workspaces ADD COLUMN time_zone TEXT NOT NULL DEFAULT 'UTC';

CREATE TABLE hygiene_stats (
    workspace_id     TEXT      NOT NULL REFERENCES workspaces (id),
    scope            TEXT      NOT NULL,
    bucket           TIMESTAMP NOT NULL,
    shard            INTEGER   NOT NULL,
    n1               INTEGER   NOT NULL,
    n2               INTEGER   NOT NULL,
    n3               INTEGER   NOT NULL,
    n4               INTEGER   NOT NULL,
    n5               INTEGER   NOT NULL,
    tag_no_soap      INTEGER   NOT NULL,
    tag_no_paper     INTEGER   NOT NULL,
    tag_dirty_floor  INTEGER   NOT NULL,
    tag_dirty_toilet INTEGER   NOT NULL,
    tag_bad_smell    INTEGER   NOT NULL,
    tag_out_of_order INTEGER   NOT NULL,
    PRIMARY KEY (workspace_id, scope, bucket, shard)
) WITHOUT ROWID;

CREATE TABLE review_stats (
    workspace_id TEXT      NOT NULL REFERENCES workspaces (id),
    review_id    TEXT      NOT NULL,
    scope        TEXT      NOT NULL,
    bucket       TIMESTAMP NOT NULL,
    shard        INTEGER   NOT NULL,
    n1           INTEGER   NOT NULL,
    n2           INTEGER   NOT NULL,
    n3           INTEGER   NOT NULL,
    n4           INTEGER   NOT NULL,
    n5           INTEGER   NOT NULL,
    PRIMARY KEY (workspace_id, review_id, scope, bucket, shard)
) WITHOUT ROWID;

CREATE TABLE survey_stats (
    workspace_id TEXT      NOT NULL REFERENCES workspaces (id),
    survey_id    TEXT      NOT NULL,
    scope        TEXT      NOT NULL,
    bucket       TIMESTAMP NOT NULL,
    question     TEXT      NOT NULL,
    value        TEXT      NOT NULL,
    shard        INTEGER   NOT NULL,
    n            INTEGER   NOT NULL,
    PRIMARY KEY (workspace_id, survey_id, scope, bucket, question, value, shard)
) WITHOUT ROWID;

INSERT INTO hygiene_stats
SELECT h.workspace_id, s.value, h.captured_at - (h.captured_at % 3600000000 + 3600000000) % 3600000000, 0,
       sum(rating = 1), sum(rating = 2), sum(rating = 3), sum(rating = 4), sum(rating = 5),
       sum(EXISTS (SELECT 1 FROM json_each(tags) WHERE value = 'no_soap')),
       sum(EXISTS (SELECT 1 FROM json_each(tags) WHERE value = 'no_paper')),
       sum(EXISTS (SELECT 1 FROM json_each(tags) WHERE value = 'dirty_floor')),
       sum(EXISTS (SELECT 1 FROM json_each(tags) WHERE value = 'dirty_toilet')),
       sum(EXISTS (SELECT 1 FROM json_each(tags) WHERE value = 'bad_smell')),
       sum(EXISTS (SELECT 1 FROM json_each(tags) WHERE value = 'out_of_order'))
FROM hygiene_submissions h, json_each(json_array(h.location_id, '00000000-0000-0000-0000-000000000000')) s
GROUP BY 1, 2, 3;

INSERT INTO review_stats
SELECT r.workspace_id, r.review_id, s.value, r.captured_at - (r.captured_at % 3600000000 + 3600000000) % 3600000000, 0,
       sum(rating = 1), sum(rating = 2), sum(rating = 3), sum(rating = 4), sum(rating = 5)
FROM review_responses r, json_each(json_array(r.location_id, '00000000-0000-0000-0000-000000000000')) s
GROUP BY 1, 2, 3, 4;

WITH k (workspace_id, survey_id, location_id, captured_at, question, value) AS (
    SELECT workspace_id, survey_id, location_id, captured_at, '', '' FROM survey_responses
    UNION ALL
    SELECT r.workspace_id, r.survey_id, r.location_id, r.captured_at, json_extract(q.value, '$.id'), ''
    FROM survey_responses r JOIN surveys v ON v.workspace_id = r.workspace_id AND v.id = r.survey_id, json_each(v.questions) q
    WHERE json_type(r.answers, '$."' || json_extract(q.value, '$.id') || '"') IS NOT NULL
    UNION ALL
    SELECT r.workspace_id, r.survey_id, r.location_id, r.captured_at, json_extract(q.value, '$.id'),
           CASE json_type(r.answers, '$."' || json_extract(q.value, '$.id') || '"')
               WHEN 'true' THEN 'true' WHEN 'false' THEN 'false'
               ELSE CAST(json_extract(r.answers, '$."' || json_extract(q.value, '$.id') || '"') AS TEXT) END
    FROM survey_responses r JOIN surveys v ON v.workspace_id = r.workspace_id AND v.id = r.survey_id, json_each(v.questions) q
    WHERE json_extract(q.value, '$.type') <> 'text'
      AND json_type(r.answers, '$."' || json_extract(q.value, '$.id') || '"') IN ('integer', 'text', 'true', 'false')
    UNION ALL
    SELECT r.workspace_id, r.survey_id, r.location_id, r.captured_at, json_extract(q.value, '$.id'), CAST(e.value AS TEXT)
    FROM survey_responses r JOIN surveys v ON v.workspace_id = r.workspace_id AND v.id = r.survey_id, json_each(v.questions) q,
         json_each(r.answers, '$."' || json_extract(q.value, '$.id') || '"') e
    WHERE json_type(r.answers, '$."' || json_extract(q.value, '$.id') || '"') = 'array'
)
INSERT INTO survey_stats
SELECT k.workspace_id, k.survey_id, s.value, k.captured_at - (k.captured_at % 3600000000 + 3600000000) % 3600000000,
       k.question, k.value, 0, count(*)
FROM k, json_each(json_array(k.location_id, '00000000-0000-0000-0000-000000000000')) s
GROUP BY 1, 2, 3, 4, 5, 6;

-- +goose Down
DROP TABLE survey_stats;
DROP TABLE review_stats;
DROP TABLE hygiene_stats;
ALTER TABLE workspaces DROP COLUMN time_zone;
