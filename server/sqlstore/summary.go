package sqlstore

import (
	"context"
	"sort"
	"time"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// summaryQuery counts each kind of submission per location in
// [$2, $3): three index range scans ((workspace_id, created_at) of each
// table), grouped. The second column names the kind.
const summaryQuery = `
SELECT location_id, 0, COUNT(*), COALESCE(SUM(rating), 0) FROM hygiene_submissions
	WHERE workspace_id = $1 AND created_at >= $2 AND created_at < $3 GROUP BY location_id
UNION ALL
SELECT location_id, 1, COUNT(*), COALESCE(SUM(rating), 0) FROM review_responses
	WHERE workspace_id = $1 AND created_at >= $2 AND created_at < $3 GROUP BY location_id
UNION ALL
SELECT location_id, 2, COUNT(*), 0 FROM survey_responses
	WHERE workspace_id = $1 AND created_at >= $2 AND created_at < $3 GROUP BY location_id`

// Summary implements [server.SummaryStore].
func (s *Store) Summary(ctx context.Context, workspaceID string, from, to time.Time) (_ []feedback.LocationSummary, err error) {
	defer wrap(&err, "Summary(%s)", workspaceID)
	if !canonical(&workspaceID) {
		return []feedback.LocationSummary{}, nil
	}
	rows, err := s.db.Query(ctx, summaryQuery, workspaceID, *truncate(&from), *truncate(&to))
	if err != nil {
		return nil, err
	}
	counts, err := collect(rows, func(r Row) (summaryRow, error) {
		var c summaryRow
		err := r.Scan(&c.location, &c.kind, &c.n, &c.sum)
		return c, err
	})
	if err != nil {
		return nil, err
	}
	byLocation := map[string]*feedback.LocationSummary{}
	for _, c := range counts {
		l := byLocation[c.location]
		if l == nil {
			l = &feedback.LocationSummary{LocationID: c.location}
			byLocation[c.location] = l
		}
		switch c.kind {
		case 0:
			l.Hygiene = feedback.RatingSummary{Count: c.n, RatingSum: c.sum}
		case 1:
			l.ReviewResponses = feedback.RatingSummary{Count: c.n, RatingSum: c.sum}
		default:
			l.SurveyResponses = c.n
		}
	}
	out := make([]feedback.LocationSummary, 0, len(byLocation))
	for _, l := range byLocation {
		out = append(out, *l)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].LocationID < out[j].LocationID })
	return out, nil
}

// summaryRow is one row of summaryQuery.
type summaryRow struct {
	location     string
	kind, n, sum int
}
