package sqlstore

import (
	"context"
	"errors"
	"maps"
	"slices"
	"strconv"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// statsAddition is what one submission adds to one table of hourly
// statistics (migration 00016_stats.sql): the same counts to each of its
// rows, which differ by their keys. Like list_counts, a row is one hour
// (UTC, of captured_at) and one shard; readers sum the shards. The
// rollup (stats_rollup.go) adds them.
type statsAddition struct {
	table  string
	keys   []string // the key columns between workspace_id and bucket
	rows   [][]any  // each row's keys
	counts []string // the count columns
	adds   []int64  // what each row adds to them
}

// ratingColumns are the count columns of ratings 1 to 5.
var ratingColumns = []string{"n1", "n2", "n3", "n4", "n5"}

// tagColumn returns the count column of a hygiene tag.
func tagColumn(tag string) string { return "tag_" + tag }

// hygieneAddition counts a hygiene submission at its location and in the
// whole workspace.
func hygieneAddition(h *feedback.HygieneSubmission) statsAddition {
	a := statsAddition{table: "hygiene_stats", keys: []string{"scope"},
		rows:   [][]any{{h.LocationID}, {wholeWorkspace}},
		counts: slices.Clone(ratingColumns), adds: ratingAdds(h.Rating)}
	for _, t := range feedback.HygieneTags {
		a.counts = append(a.counts, tagColumn(t))
		a.adds = append(a.adds, boolCount(slices.Contains(h.Tags, t)))
	}
	return a
}

// reviewAddition counts a review response at its location and in the
// whole workspace.
func reviewAddition(r *feedback.ReviewResponse) statsAddition {
	return statsAddition{table: "review_stats", keys: []string{"review_id", "scope"},
		rows:   [][]any{{r.ReviewID, r.LocationID}, {r.ReviewID, wholeWorkspace}},
		counts: ratingColumns, adds: ratingAdds(r.Rating)}
}

// ratingAdds returns the additions to n1..n5 of one rating.
func ratingAdds(rating int) []int64 {
	adds := make([]int64, 5)
	if rating >= 1 && rating <= 5 {
		adds[rating-1] = 1
	}
	return adds
}

func boolCount(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// surveyAddition counts a survey response at its location and in the
// whole workspace: the response (question ""), each answered question
// (value "") and each answer's values; text answers have no value row.
// types maps question ids to their types.
func surveyAddition(r *feedback.SurveyResponse, types map[string]feedback.QuestionType) statsAddition {
	pairs := [][2]string{{"", ""}}
	for _, q := range slices.Sorted(maps.Keys(r.Answers)) {
		typ, ok := types[q]
		if !ok || r.Answers[q] == nil {
			continue
		}
		pairs = append(pairs, [2]string{q, ""})
		if typ == feedback.QuestionText {
			continue
		}
		for _, v := range answerValues(r.Answers[q]) {
			if p := [2]string{q, v}; !slices.Contains(pairs, p) {
				pairs = append(pairs, p)
			}
		}
	}
	a := statsAddition{table: "survey_stats", keys: []string{"survey_id", "scope", "question", "value"}, counts: []string{"n"}, adds: []int64{1}}
	for _, scope := range []string{r.LocationID, wholeWorkspace} {
		for _, p := range pairs {
			a.rows = append(a.rows, []any{r.SurveyID, scope, p[0], p[1]})
		}
	}
	return a
}

// answerValues returns the values of an answer as survey_stats keys
// them: numbers in decimal, booleans "true" or "false", option ids as
// they are, one per option of a list.
func answerValues(v any) []string {
	switch v := v.(type) {
	case []any:
		var out []string
		for _, e := range v {
			out = append(out, answerValues(e)...)
		}
		return out
	case []string:
		return v
	case string:
		return []string{v}
	case bool:
		return []string{strconv.FormatBool(v)}
	case float64:
		return []string{strconv.FormatFloat(v, 'f', -1, 64)}
	case int:
		return []string{strconv.Itoa(v)}
	case int64:
		return []string{strconv.FormatInt(v, 10)}
	}
	return nil
}

// questionTypes returns the type of each question of a survey, which
// survey_stats needs to leave text answers out. A missing survey has
// none: the INSERT then breaks its foreign key.
func (s *Store) questionTypes(ctx context.Context, workspaceID, surveyID string) (map[string]feedback.QuestionType, error) {
	var qs []feedback.Question
	err := s.db.QueryRow(ctx, `SELECT questions FROM surveys WHERE workspace_id = $1 AND id = $2`,
		workspaceID, surveyID).Scan(asJSON(&qs))
	if err != nil && !errors.Is(err, ErrNoRows) {
		return nil, err
	}
	types := make(map[string]feedback.QuestionType, len(qs))
	for _, q := range qs {
		types[q.ID] = q.Type
	}
	return types, nil
}
