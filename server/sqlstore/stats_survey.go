package sqlstore

import (
	"context"
	"strconv"
	"time"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// SurveyStats returns a survey's statistics per question of q, from the
// key/value rows of survey_stats. Returns feedback.ENotFound if the
// survey does not exist.
func (s *Store) SurveyStats(ctx context.Context, workspaceID, surveyID string, q feedback.StatsQuery) (_ *feedback.SurveyStats, err error) {
	defer wrap(&err, "SurveyStats(%s, %s)", workspaceID, surveyID)
	sc, err := s.statsScope(ctx, workspaceID, q)
	if err != nil {
		return nil, err
	}
	sv, err := s.Survey(ctx, workspaceID, surveyID)
	if err != nil {
		return nil, err
	}
	rows, err := s.db.Query(ctx, `SELECT `+statsCursorSQL+`, bucket, question, value, CAST(SUM(n) AS BIGINT)
		FROM survey_stats WHERE workspace_id = $1 AND survey_id = $2 AND scope = $3 AND bucket >= $4 AND bucket < $5
		GROUP BY bucket, question, value ORDER BY bucket`, workspaceID, sv.ID, sc.scope, sc.from, sc.to)
	if err != nil {
		return nil, err
	}
	counts, hours, err := scanSurveyRows(rows, &sc.cursor)
	if err != nil {
		return nil, err
	}
	types := make(map[string]feedback.QuestionType, len(sv.Questions))
	for _, q := range sv.Questions {
		types[q.ID] = q.Type
	}
	tail, err := s.statsTail(ctx, workspaceID, sc.cursor, feedback.EventSurveyResponseCreated,
		func(string) (map[string]feedback.QuestionType, error) { return types, nil })
	if err != nil {
		return nil, err
	}
	hours = addSurveyTail(counts, hours, tail, sc, sv.ID)
	st := &feedback.SurveyStats{SurveyID: sv.ID, From: q.From, To: q.To, Bucket: sc.b.bucket, TimeZone: sc.zone,
		LocationID: q.LocationID, Responses: counts[answerKey{}], Buckets: []feedback.CountBucket{},
		Questions: make([]feedback.QuestionStats, len(sv.Questions))}
	_, buckets := sc.b.series(hours)
	for _, b := range buckets {
		st.Buckets = append(st.Buckets, feedback.CountBucket{Start: feedback.NewTime(b.hour), Count: b.n[0]})
	}
	for i, question := range sv.Questions {
		st.Questions[i] = questionStats(question, counts)
	}
	return st, nil
}

// answerKey is a question and a value of survey_stats.
type answerKey struct{ question, value string }

// addSurveyTail adds the rows of tail in sc of survey surveyID to counts
// and hours (see scanSurveyRows) and returns the hours.
func addSurveyTail(counts map[answerKey]int, hours []hourTally, tail []statsRow, sc statsScope, surveyID string) []hourTally {
	var more []hourTally
	for _, r := range tail {
		if !r.in(sc, surveyID, sc.scope) {
			continue
		}
		k := answerKey{r.keys[2].(string), r.keys[3].(string)}
		counts[k] += int(r.adds[0])
		if k == (answerKey{}) {
			more = append(more, r.tally())
		}
	}
	return mergeHours(hours, more)
}

// scanSurveyRows reads rows of the statistics cursor and survey_stats
// sums and closes them: the cursor goes to *cursor, counts totals each
// key over the range, hours counts the responses of each hour (in n[0]).
func scanSurveyRows(rows Rows, cursor *int64) (map[answerKey]int, []hourTally, error) {
	defer rows.Close()
	counts := map[answerKey]int{}
	var hours []hourTally
	for rows.Next() {
		var hour time.Time
		var k answerKey
		var n int
		if err := rows.Scan(cursor, atTime(&hour), &k.question, &k.value, &n); err != nil {
			return nil, nil, err
		}
		counts[k] += n
		if k == (answerKey{}) {
			h := hourTally{hour: hour}
			h.n[0] = n
			hours = append(hours, h)
		}
	}
	return counts, hours, rows.Err()
}

// questionStats returns what counts hold of question q.
func questionStats(q feedback.Question, counts map[answerKey]int) feedback.QuestionStats {
	st := feedback.QuestionStats{QuestionID: q.ID, Type: q.Type, Responses: counts[answerKey{q.ID, ""}]}
	value := func(v string) int { return counts[answerKey{q.ID, v}] }
	switch q.Type {
	case feedback.QuestionRating, feedback.QuestionNPS:
		lo, hi := 1, 5
		if q.Type == feedback.QuestionNPS {
			lo, hi = 0, 10
		}
		st.Distribution = make([]int, hi-lo+1)
		all, sum := 0, 0
		for v := lo; v <= hi; v++ {
			n := value(strconv.Itoa(v))
			st.Distribution[v-lo] = n
			all += n
			sum += n * v
		}
		if all > 0 {
			st.Average = ptr(float64(sum) / float64(all))
		}
		if q.Type == feedback.QuestionNPS {
			st.NPS = nps(st.Distribution)
		}
	case feedback.QuestionSingleChoice, feedback.QuestionMultiChoice:
		st.Choices = make(map[string]int, len(q.Options))
		for _, o := range q.Options {
			st.Choices[o.ID] = value(o.ID)
		}
	case feedback.QuestionYesNo:
		st.Yes, st.No = ptr(value("true")), ptr(value("false"))
	}
	return st
}
