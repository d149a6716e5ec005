-- Hourly statistics of what visitors submit (issue 13), kept like
-- list_counts: server/sqlstore adds to them in the statement that
-- inserts a submission, only when it inserted a row. bucket is the UTC
-- hour of captured_at (when the visitor rated, not when a kiosk synced).
-- scope is a location id, or the nil UUID for the whole workspace. Rows
-- are sharded by the writer's backend (Dialect.CountShard) so that
-- concurrent submissions of one location do not wait on one row lock;
-- readers sum the shards.
--
--   hygiene_stats  one wide row a scope, hour and shard: n1..n5 count the
--                  ratings, tag_* the tags of feedback.HygieneTags.
--   review_stats   the same for a review's ratings.
--   survey_stats   key/value counters a survey, scope, hour and shard:
--                  question '' value '' counts responses; question q
--                  value '' counts the responses that answered q; q with
--                  a value counts that value (a rating or NPS score, an
--                  option id, 'true' or 'false'). Text answers have no
--                  value row.
--
-- Nothing deletes submissions yet: whatever does must subtract from
-- these counters in the same transaction. The backfill counts the rows
-- stored before; the SHARE locks make writers still at work finish
-- first (see 00002_list_counts.sql). fillfactor 50 leaves room for HOT
-- updates.
--
-- workspaces.time_zone is the IANA zone of the workspace's days, weeks
-- and heatmap hours.

-- +goose Up
ALTER TABLE workspaces ADD COLUMN time_zone text NOT NULL DEFAULT 'UTC';

CREATE TABLE hygiene_stats (
    workspace_id     uuid        NOT NULL REFERENCES workspaces (id),
    scope            uuid        NOT NULL,
    bucket           timestamptz NOT NULL,
    shard            integer     NOT NULL,
    n1               bigint      NOT NULL,
    n2               bigint      NOT NULL,
    n3               bigint      NOT NULL,
    n4               bigint      NOT NULL,
    n5               bigint      NOT NULL,
    tag_no_soap      bigint      NOT NULL,
    tag_no_paper     bigint      NOT NULL,
    tag_dirty_floor  bigint      NOT NULL,
    tag_dirty_toilet bigint      NOT NULL,
    tag_bad_smell    bigint      NOT NULL,
    tag_out_of_order bigint      NOT NULL,
    PRIMARY KEY (workspace_id, scope, bucket, shard)
) WITH (fillfactor = 50);

CREATE TABLE review_stats (
    workspace_id uuid        NOT NULL REFERENCES workspaces (id),
    review_id    uuid        NOT NULL,
    scope        uuid        NOT NULL,
    bucket       timestamptz NOT NULL,
    shard        integer     NOT NULL,
    n1           bigint      NOT NULL,
    n2           bigint      NOT NULL,
    n3           bigint      NOT NULL,
    n4           bigint      NOT NULL,
    n5           bigint      NOT NULL,
    PRIMARY KEY (workspace_id, review_id, scope, bucket, shard)
) WITH (fillfactor = 50);

CREATE TABLE survey_stats (
    workspace_id uuid        NOT NULL REFERENCES workspaces (id),
    survey_id    uuid        NOT NULL,
    scope        uuid        NOT NULL,
    bucket       timestamptz NOT NULL,
    question     text        NOT NULL,
    value        text        NOT NULL,
    shard        integer     NOT NULL,
    n            bigint      NOT NULL,
    PRIMARY KEY (workspace_id, survey_id, scope, bucket, question, value, shard)
) WITH (fillfactor = 50);

LOCK TABLE hygiene_submissions, review_responses, survey_responses IN SHARE MODE;

INSERT INTO hygiene_stats
SELECT h.workspace_id, s.scope, date_trunc('hour', h.captured_at, 'UTC'), 0,
       count(*) FILTER (WHERE rating = 1), count(*) FILTER (WHERE rating = 2), count(*) FILTER (WHERE rating = 3),
       count(*) FILTER (WHERE rating = 4), count(*) FILTER (WHERE rating = 5),
       count(*) FILTER (WHERE tags ? 'no_soap'), count(*) FILTER (WHERE tags ? 'no_paper'),
       count(*) FILTER (WHERE tags ? 'dirty_floor'), count(*) FILTER (WHERE tags ? 'dirty_toilet'),
       count(*) FILTER (WHERE tags ? 'bad_smell'), count(*) FILTER (WHERE tags ? 'out_of_order')
FROM hygiene_submissions h
CROSS JOIN LATERAL (VALUES (h.location_id), ('00000000-0000-0000-0000-000000000000'::uuid)) AS s (scope)
GROUP BY 1, 2, 3;

INSERT INTO review_stats
SELECT r.workspace_id, r.review_id, s.scope, date_trunc('hour', r.captured_at, 'UTC'), 0,
       count(*) FILTER (WHERE rating = 1), count(*) FILTER (WHERE rating = 2), count(*) FILTER (WHERE rating = 3),
       count(*) FILTER (WHERE rating = 4), count(*) FILTER (WHERE rating = 5)
FROM review_responses r
CROSS JOIN LATERAL (VALUES (r.location_id), ('00000000-0000-0000-0000-000000000000'::uuid)) AS s (scope)
GROUP BY 1, 2, 3, 4;

INSERT INTO survey_stats
SELECT r.workspace_id, r.survey_id, s.scope, date_trunc('hour', r.captured_at, 'UTC'), k.question, k.value, 0, count(*)
FROM survey_responses r
JOIN surveys v ON v.workspace_id = r.workspace_id AND v.id = r.survey_id
CROSS JOIN LATERAL (VALUES (r.location_id), ('00000000-0000-0000-0000-000000000000'::uuid)) AS s (scope)
CROSS JOIN LATERAL (
    SELECT '' AS question, '' AS value
    UNION ALL
    SELECT q.value ->> 'id', '' FROM jsonb_array_elements(v.questions) q WHERE r.answers ? (q.value ->> 'id')
    UNION ALL
    SELECT q.value ->> 'id', CASE jsonb_typeof(a.value) WHEN 'string' THEN a.value #>> '{}' ELSE a.value::text END
    FROM jsonb_array_elements(v.questions) q
    CROSS JOIN LATERAL (
        SELECT e.value FROM jsonb_array_elements(CASE jsonb_typeof(r.answers -> (q.value ->> 'id'))
            WHEN 'array' THEN r.answers -> (q.value ->> 'id') ELSE '[]'::jsonb END) e
        UNION ALL
        SELECT r.answers -> (q.value ->> 'id') WHERE jsonb_typeof(r.answers -> (q.value ->> 'id')) <> 'array'
    ) a
    WHERE q.value ->> 'type' <> 'text' AND r.answers ? (q.value ->> 'id')
) k
GROUP BY 1, 2, 3, 4, 5, 6;

-- +goose Down
DROP TABLE survey_stats;
DROP TABLE review_stats;
DROP TABLE hygiene_stats;
ALTER TABLE workspaces DROP COLUMN time_zone;
