package sqlstore

import (
	"context"
	"slices"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// statsTail returns what the workspace's events of type typ after cursor
// add to the statistics: the events that the rollup has not counted yet
// (see stats_rollup.go). It reads every such event committed before the
// read, without the events API's horizon: the counters hold every event
// up to the cursor, and the rollup only ever advanced it over events
// below the horizon, so none at or below it can still commit. surveyTypes
// returns a survey's question types (nil where typ is not of surveys).
func (s *Store) statsTail(ctx context.Context, workspaceID string, cursor int64, typ string,
	surveyTypes func(string) (map[string]feedback.QuestionType, error)) ([]statsRow, error) {
	rows, err := s.db.Query(ctx, `SELECT `+eventColumns+` FROM events
		WHERE workspace_id = $1 AND seq > $2 AND type = $3 ORDER BY seq`, workspaceID, cursor, typ)
	if err != nil {
		return nil, err
	}
	events, err := collect(rows, scanEvent)
	if err != nil {
		return nil, err
	}
	var out []statsRow
	for _, e := range events {
		a, hour, ok, err := eventAddition(e, surveyTypes)
		if err != nil {
			return nil, err
		}
		if ok {
			out = append(out, a.at(hour)...)
		}
	}
	return out, nil
}

// in reports whether r is in sc's hours and its keys start with keys.
func (r statsRow) in(sc statsScope, keys ...any) bool {
	if r.hour.Before(sc.from) || !r.hour.Before(sc.to) || len(r.keys) < len(keys) {
		return false
	}
	for i, k := range keys {
		if r.keys[i] != k {
			return false
		}
	}
	return true
}

// tally returns r's additions as the tally of its hour: n1..n5, then the
// tags' when there are more.
func (r statsRow) tally() hourTally {
	h := hourTally{hour: r.hour}
	for i, n := range r.adds {
		if i < len(h.n) {
			h.n[i] = int(n)
		} else {
			h.tags[i-len(h.n)] = int(n)
		}
	}
	return h
}

// mergeHours returns hours (ordered by hour) with more added, ordered by
// hour, one tally an hour.
func mergeHours(hours, more []hourTally) []hourTally {
	if len(more) == 0 {
		return hours
	}
	all := append(slices.Clone(hours), more...)
	slices.SortStableFunc(all, func(a, b hourTally) int { return a.hour.Compare(b.hour) })
	var out []hourTally
	for _, h := range all {
		out = addHour(out, h)
	}
	return out
}

// tailHours returns the tallies of the rows of tail in sc whose keys
// start with keys.
func tailHours(tail []statsRow, sc statsScope, keys ...any) []hourTally {
	var out []hourTally
	for _, r := range tail {
		if r.in(sc, keys...) {
			out = append(out, r.tally())
		}
	}
	return out
}
