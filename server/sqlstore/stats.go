package sqlstore

import (
	"context"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// hygieneCounts are the count columns of hygiene_stats, in the order
// of tally: n1..n5, then the tags of feedback.HygieneTags. Reads take
// the rows of each shard as they are, in the order of the primary key,
// and add the shards of an hour up in Go: no sort, no aggregate, which
// on PostgreSQL would sum in numeric and spill to disk for a year.
var hygieneCounts = strings.Join(append(slices.Clone(ratingColumns), tagColumns()...), ", ")

// tagColumns returns the count columns of the hygiene tags.
func tagColumns() []string {
	if len(feedback.HygieneTags) > tagSlots {
		panic("sqlstore: more hygiene tags than tagSlots")
	}
	cs := make([]string, len(feedback.HygieneTags))
	for i, t := range feedback.HygieneTags {
		cs[i] = tagColumn(t)
	}
	return cs
}

// statsScope is a checked statistics query: the hours whose first instant
// lies in [from, to), its bucketer, and the scope (a location id or
// wholeWorkspace).
type statsScope struct {
	from, to time.Time
	zone     string
	b        bucketer
	scope    string
	// cursor is the workspace's statistics cursor, read before the
	// counters: their query selects it again, and that value replaces
	// this one when it returns a row. The events after it are read
	// with statsTail.
	cursor int64
}

// statsScope checks q and reads the workspace's time zone. An unknown
// workspace or location (one of another workspace; a deleted one is
// known) is feedback.ENotFound; a bad range or bucket
// feedback.EValidation.
func (s *Store) statsScope(ctx context.Context, workspaceID string, q feedback.StatsQuery) (statsScope, error) {
	sc := statsScope{from: q.From.Time, to: q.To.Time, scope: wholeWorkspace, b: bucketer{bucket: q.Bucket}}
	if sc.b.bucket == "" {
		sc.b.bucket = feedback.BucketDay
	}
	if err := checkStatsRange(sc.from, sc.to, sc.b.bucket); err != nil {
		return sc, err
	}
	settings, err := s.WorkspaceSettings(ctx, workspaceID)
	if err != nil {
		return sc, err
	}
	if err := s.db.QueryRow(ctx, "SELECT "+statsCursorSQL, workspaceID).Scan(&sc.cursor); err != nil {
		return sc, err
	}
	sc.zone = settings.TimeZone
	if sc.b.loc, err = time.LoadLocation(sc.zone); err != nil {
		return sc, err
	}
	if q.LocationID != "" {
		sc.scope = q.LocationID
		if !canonical(&sc.scope) {
			return sc, notFound("location", q.LocationID)
		}
		var one int
		err := s.db.QueryRow(ctx, `SELECT 1 FROM locations WHERE workspace_id = $1 AND id = $2`,
			workspaceID, sc.scope).Scan(&one)
		if err != nil {
			return sc, orNotFound(err, "location", q.LocationID)
		}
	}
	return sc, nil
}

// checkStatsRange reports a range or bucket that a statistics query may
// not ask for, as feedback.EValidation.
func checkStatsRange(from, to time.Time, bucket string) error {
	switch {
	case from.IsZero() || to.IsZero():
		return feedback.Errorf(feedback.EValidation, "A statistics query needs both from and to.")
	case !from.Before(to):
		return feedback.Errorf(feedback.EValidation, "from must be before to.")
	case to.Sub(from) > feedback.MaxStatsSpan:
		return feedback.Errorf(feedback.EValidation, "The range from from to to may span at most 367 days.")
	case bucket != feedback.BucketHour && bucket != feedback.BucketDay && bucket != feedback.BucketWeek:
		return feedback.Errorf(feedback.EValidation, "bucket must be hour, day or week.")
	}
	return nil
}

// HygieneStats returns the hygiene statistics of q: its series, total and
// heatmap, from the hourly rows of hygiene_stats (see server.StatsStore).
func (s *Store) HygieneStats(ctx context.Context, workspaceID string, q feedback.StatsQuery) (_ *feedback.HygieneStats, err error) {
	defer wrap(&err, "HygieneStats(%s)", workspaceID)
	sc, err := s.statsScope(ctx, workspaceID, q)
	if err != nil {
		return nil, err
	}
	hours, err := scanHours(&sc.cursor, true)(s.db.Query(ctx, `SELECT `+statsCursorSQL+`, bucket, `+hygieneCounts+`
		FROM hygiene_stats WHERE workspace_id = $1 AND scope = $2 AND bucket >= $3 AND bucket < $4 ORDER BY bucket`,
		workspaceID, sc.scope, sc.from, sc.to))
	if err != nil {
		return nil, err
	}
	tail, err := s.statsTail(ctx, workspaceID, sc.cursor, feedback.EventHygieneSubmissionCreated, nil)
	if err != nil {
		return nil, err
	}
	hours = mergeHours(hours, tailHours(tail, sc, sc.scope))
	st := &feedback.HygieneStats{From: q.From, To: q.To, Bucket: sc.b.bucket, TimeZone: sc.zone, LocationID: q.LocationID,
		Heatmap: sc.b.heatmap(hours)}
	st.Total, st.Buckets = sc.b.hygieneSeries(hours)
	return st, nil
}

// LocationStats returns the hygiene series of every location with a
// rating in q's range, deleted ones included, ordered by id.
func (s *Store) LocationStats(ctx context.Context, workspaceID string, q feedback.StatsQuery) (_ *feedback.LocationStats, err error) {
	defer wrap(&err, "LocationStats(%s)", workspaceID)
	q.LocationID = ""
	sc, err := s.statsScope(ctx, workspaceID, q)
	if err != nil {
		return nil, err
	}
	rows, err := s.db.Query(ctx, `SELECT `+statsCursorSQL+`, scope, bucket, `+hygieneCounts+` FROM hygiene_stats
		WHERE workspace_id = $1 AND scope <> $2 AND bucket >= $3 AND bucket < $4
		ORDER BY scope, bucket`, workspaceID, wholeWorkspace, sc.from, sc.to)
	if err != nil {
		return nil, err
	}
	byLocation, err := scanScopedHours(rows, &sc.cursor)
	if err != nil {
		return nil, err
	}
	tail, err := s.statsTail(ctx, workspaceID, sc.cursor, feedback.EventHygieneSubmissionCreated, nil)
	if err != nil {
		return nil, err
	}
	more := map[string][]hourTally{}
	for _, r := range tail {
		if scope := r.keys[0].(string); scope != wholeWorkspace && r.in(sc) {
			more[scope] = append(more[scope], r.tally())
		}
	}
	for scope, hours := range more {
		byLocation[scope] = mergeHours(byLocation[scope], hours)
	}
	order := slices.Sorted(maps.Keys(byLocation))
	st := &feedback.LocationStats{From: q.From, To: q.To, Bucket: sc.b.bucket, TimeZone: sc.zone,
		Locations: make([]feedback.LocationTrend, len(order))}
	for i, id := range order {
		st.Locations[i].LocationID = id
		st.Locations[i].Total, st.Locations[i].Buckets = sc.b.hygieneSeries(byLocation[id])
	}
	return st, nil
}

// ReviewStats returns a review's rating statistics of q. Returns
// feedback.ENotFound if the review does not exist.
func (s *Store) ReviewStats(ctx context.Context, workspaceID, reviewID string, q feedback.StatsQuery) (_ *feedback.ReviewStats, err error) {
	defer wrap(&err, "ReviewStats(%s, %s)", workspaceID, reviewID)
	sc, err := s.statsScope(ctx, workspaceID, q)
	if err != nil {
		return nil, err
	}
	if err := formExists(ctx, s.db, "reviews", "review", &workspaceID, &reviewID); err != nil {
		return nil, err
	}
	hours, err := scanHours(&sc.cursor, false)(s.db.Query(ctx, `SELECT `+statsCursorSQL+`, bucket, `+
		strings.Join(ratingColumns, ", ")+` FROM review_stats
		WHERE workspace_id = $1 AND review_id = $2 AND scope = $3 AND bucket >= $4 AND bucket < $5
		ORDER BY bucket`, workspaceID, reviewID, sc.scope, sc.from, sc.to))
	if err != nil {
		return nil, err
	}
	tail, err := s.statsTail(ctx, workspaceID, sc.cursor, feedback.EventReviewResponseCreated, nil)
	if err != nil {
		return nil, err
	}
	hours = mergeHours(hours, tailHours(tail, sc, reviewID, sc.scope))
	total, buckets := sc.b.series(hours)
	st := &feedback.ReviewStats{ReviewID: reviewID, From: q.From, To: q.To, Bucket: sc.b.bucket, TimeZone: sc.zone,
		LocationID: q.LocationID, Total: total.ratings(), Buckets: make([]feedback.RatingBucket, len(buckets))}
	for i, h := range buckets {
		st.Buckets[i] = feedback.RatingBucket{Start: feedback.NewTime(h.hour), RatingStats: h.ratings()}
	}
	return st, nil
}

// scanHours reads rows of the statistics cursor, an hour and its counts
// (ratings, then the tags' when tags is set), ordered by hour, adds up
// the shards of each hour and closes them; the cursor goes to *cursor.
func scanHours(cursor *int64, tags bool) func(Rows, error) ([]hourTally, error) {
	return func(rows Rows, err error) ([]hourTally, error) {
		if err != nil {
			return nil, err
		}
		return scanTallies(rows, cursor, tags)
	}
}

// scanTallies is scanHours' reading of rows.
func scanTallies(rows Rows, cursor *int64, tags bool) ([]hourTally, error) {
	defer rows.Close()
	var hours []hourTally
	var row hourTally
	dest := tallyDest(&row, cursor, nil, tags)
	for rows.Next() {
		row = hourTally{}
		if err := rows.Scan(dest...); err != nil {
			return nil, err
		}
		hours = addHour(hours, row)
	}
	return hours, rows.Err()
}

// scanScopedHours reads rows of the statistics cursor, a scope, an hour
// and hygiene counts, ordered by scope and hour, adds up the shards of
// each hour and closes them; the cursor goes to *cursor.
func scanScopedHours(rows Rows, cursor *int64) (map[string][]hourTally, error) {
	defer rows.Close()
	byScope := map[string][]hourTally{}
	var scope string
	var row hourTally
	dest := tallyDest(&row, cursor, &scope, true)
	for rows.Next() {
		row = hourTally{}
		if err := rows.Scan(dest...); err != nil {
			return nil, err
		}
		byScope[scope] = addHour(byScope[scope], row)
	}
	return byScope, rows.Err()
}

// addHour appends h to hours, ordered by hour, or adds it to the last
// one when it is another shard of that hour.
func addHour(hours []hourTally, h hourTally) []hourTally {
	if n := len(hours); n > 0 && hours[n-1].hour.Equal(h.hour) {
		hours[n-1].add(h.tally)
		return hours
	}
	return append(hours, h)
}

// tallyDest returns the scan destinations of a row of the statistics
// cursor and an hour's counts into h, after the scope when scope is not
// nil: five ratings, then the tags' when tags is set. The same
// destinations serve every row.
func tallyDest(h *hourTally, cursor *int64, scope *string, tags bool) []any {
	dest := []any{cursor}
	if scope != nil {
		dest = append(dest, scope)
	}
	dest = append(dest, atTime(&h.hour))
	for i := range h.n {
		dest = append(dest, &h.n[i])
	}
	if tags {
		for i := range feedback.HygieneTags {
			dest = append(dest, &h.tags[i])
		}
	}
	return dest
}
