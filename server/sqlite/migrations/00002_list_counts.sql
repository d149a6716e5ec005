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
-- bucket is the hour (UTC) of created_at, in microseconds like every
-- time: created_at minus its remainder (floored, for times before 1970)
-- by 3600000000. Nothing deletes submissions yet: whatever does must
-- subtract from their counters in the same transaction.
--
-- The backfill counts the rows older versions stored. Stop them before
-- migrating: a row they insert later is never counted.

-- +goose Up
CREATE TABLE list_counts (
    workspace_id TEXT      NOT NULL REFERENCES workspaces (id),
    list         TEXT      NOT NULL,
    scope        TEXT      NOT NULL,
    bucket       TIMESTAMP NOT NULL,
    n            INTEGER   NOT NULL,
    PRIMARY KEY (workspace_id, list, scope, bucket)
) WITHOUT ROWID;

INSERT INTO list_counts (workspace_id, list, scope, bucket, n)
SELECT workspace_id, 'hygiene_submissions', '00000000-0000-0000-0000-000000000000',
       created_at - (created_at % 3600000000 + 3600000000) % 3600000000, count(*)
FROM hygiene_submissions GROUP BY 1, 4;

INSERT INTO list_counts (workspace_id, list, scope, bucket, n)
SELECT workspace_id, 'hygiene_submissions.location_id', location_id,
       created_at - (created_at % 3600000000 + 3600000000) % 3600000000, count(*)
FROM hygiene_submissions GROUP BY 1, 3, 4;

INSERT INTO list_counts (workspace_id, list, scope, bucket, n)
SELECT workspace_id, 'review_responses.review_id', review_id,
       created_at - (created_at % 3600000000 + 3600000000) % 3600000000, count(*)
FROM review_responses GROUP BY 1, 3, 4;

INSERT INTO list_counts (workspace_id, list, scope, bucket, n)
SELECT workspace_id, 'survey_responses.survey_id', survey_id,
       created_at - (created_at % 3600000000 + 3600000000) % 3600000000, count(*)
FROM survey_responses GROUP BY 1, 3, 4;

-- +goose Down
DROP TABLE list_counts;
