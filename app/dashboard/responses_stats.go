package dashboard

import (
	"context"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/feedbackhq/feedback/shared/client"
	"github.com/feedbackhq/feedback/shared/feedback"
)

// formStats is the results of a review or survey over the days and
// location of the list's filter (GET /stats/reviews/{id} or
// /stats/surveys/{id}): the charts above the responses.
type formStats struct {
	zone    zone
	days    []day // the period's days, oldest first; nil when it is read in weeks
	review  *feedback.ReviewStats
	survey  *feedback.SurveyStats
	problem string // why they could not be read
}

// The results' period when the filter names no day.
const (
	resultsDays  = 30
	maxDailyDays = 62 // a longer period is charted in weeks
)

// statsPeriod returns the period of the filter's days: from its first
// day to the end of its last, the last 30 days when it names none.
func statsPeriod(z zone, f responseFilter, now time.Time) (from, to time.Time) {
	fp, tp := dayRange(f.from, f.to)
	_, from, to = z.lastDays(resultsDays, now)
	if tp != nil {
		to = *tp
		from = to.Add(-resultsDays * 24 * time.Hour)
	}
	if fp != nil {
		from = *fp
	}
	if to.Sub(from) > feedback.MaxStatsSpan {
		from = to.Add(-feedback.MaxStatsSpan + 24*time.Hour)
	}
	return from, to
}

// loadStats reads the results of the filter f.
func (p *responsesPage) loadStats(f responseFilter) {
	kind, id := p.kind, p.id
	p.async(func(c context.Context) func(app.Context) {
		s, err := readFormStats(c, p.api, kind, id, f, time.Now())
		return func(app.Context) {
			if p.Shell.refused(explain(err), "The results could not be loaded: ", func(m string) { p.stats.problem = m }) {
				return
			}
			p.stats = *s
		}
	})
}

func readFormStats(c context.Context, api *client.Client, kind feedback.FormKind, id string, f responseFilter, now time.Time) (*formStats, error) {
	set, err := api.WorkspaceSettings(c)
	if err != nil {
		return nil, err
	}
	s := &formStats{zone: zone(set.TimeZone)}
	from, to := statsPeriod(s.zone, f, now)
	q := feedback.StatsQuery{From: feedback.NewTime(from), To: feedback.NewTime(to), Bucket: feedback.BucketDay, LocationID: f.loc}
	if to.Sub(from) > maxDailyDays*24*time.Hour {
		q.Bucket = feedback.BucketWeek
	} else {
		for t := from.Add(12 * time.Hour); t.Before(to); t = t.Add(24 * time.Hour) {
			s.days = append(s.days, day{key: s.zone.date(t), label: s.zone.label(t), noon: t})
		}
	}
	if kind == feedback.FormReview {
		s.review, err = api.ReviewStats(c, id, q)
	} else {
		s.survey, err = api.SurveyStats(c, id, q)
	}
	return s, err
}
