-- Hourly counters of the lists that grow without bound (what visitors
-- submit), so that a list's total is a sum over the whole hours of its
-- range plus two index range counts at its edges, not a count of every
-- row. server/sqlstore adds one in the transaction that inserts a row.
-- A series is a list and a scope, the value of the list's filter:
--
--   list                             scope
--   hygiene_submissions              the nil UUID (the whole workspace)
--   hygiene_submissions.location_id  location_id
--   review_responses.review_id       review_id
--   survey_responses.survey_id       survey_id
--
-- bucket is the hour (UTC) of created_at. Nothing deletes submissions
-- yet: whatever does must subtract from their counters in the same
-- transaction.
--
-- The primary key includes n, so that a total reads its series in an
-- index-only scan, in order, rather than from heap pages that it shares
-- with the series of every other location: summing the 8,760 hours of a
-- year of one location then costs about a millisecond. (Updates of n
-- cannot be HOT then, which costs an index entry per submission until
-- vacuum.)
--
-- The backfill counts the rows older versions stored. Stop them before
-- migrating: a row they insert later is never counted. The SHARE locks
-- make writers still at work finish first, so that no row is missed.

-- +goose Up
CREATE TABLE list_counts (
    workspace_id uuid        NOT NULL REFERENCES workspaces (id),
    list         text        NOT NULL,
    scope        uuid        NOT NULL,
    bucket       timestamptz NOT NULL,
    n            bigint      NOT NULL,
    PRIMARY KEY (workspace_id, list, scope, bucket) INCLUDE (n)
);

LOCK TABLE hygiene_submissions, review_responses, survey_responses IN SHARE MODE;

INSERT INTO list_counts (workspace_id, list, scope, bucket, n)
SELECT workspace_id, 'hygiene_submissions', '00000000-0000-0000-0000-000000000000',
       date_trunc('hour', created_at, 'UTC'), count(*)
FROM hygiene_submissions GROUP BY 1, 4;

INSERT INTO list_counts (workspace_id, list, scope, bucket, n)
SELECT workspace_id, 'hygiene_submissions.location_id', location_id, date_trunc('hour', created_at, 'UTC'), count(*)
FROM hygiene_submissions GROUP BY 1, 3, 4;

INSERT INTO list_counts (workspace_id, list, scope, bucket, n)
SELECT workspace_id, 'review_responses.review_id', review_id, date_trunc('hour', created_at, 'UTC'), count(*)
FROM review_responses GROUP BY 1, 3, 4;

INSERT INTO list_counts (workspace_id, list, scope, bucket, n)
SELECT workspace_id, 'survey_responses.survey_id', survey_id, date_trunc('hour', created_at, 'UTC'), count(*)
FROM survey_responses GROUP BY 1, 3, 4;

-- +goose Down
DROP TABLE list_counts;
