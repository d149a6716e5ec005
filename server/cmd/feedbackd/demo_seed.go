package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/feedbackhq/feedback/server"
	"github.com/feedbackhq/feedback/server/secret"
	"github.com/feedbackhq/feedback/shared/feedback"
)

// seedClock is the store's clock while the demo seeds: the time it was
// set to, so that each example submission is stored (created_at) when it
// was captured, as if it had been sent then; the real time before it is
// set and after it is cleared.
type seedClock struct {
	mu sync.Mutex
	at time.Time
}

// Now returns the time set, or the real time.
func (c *seedClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.at.IsZero() {
		return time.Now()
	}
	return c.at
}

// Set sets the time; the zero time goes back to the real one.
func (c *seedClock) Set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.at = t
}

// seedDemo creates the demo workspace and its content.
func seedDemo(ctx context.Context, store server.Store, keys *secret.Keyring, clock *seedClock) (*server.Workspace, error) {
	ws, err := createWorkspace(ctx, store, keys, "Demo", demoSlug)
	if err != nil {
		return nil, err
	}
	locs := map[string]*feedback.Location{}
	for _, name := range []string{"Restroom, 1st floor", "Lobby", "Coffee shop"} {
		l := &feedback.Location{Name: name}
		if err := store.CreateLocation(ctx, ws.ID, l); err != nil {
			return nil, err
		}
		locs[name] = l
	}
	review, survey, err := seedForms(ctx, store, ws.ID)
	if err != nil {
		return nil, err
	}
	posters := []*server.Poster{
		demoPoster(ws.ID, locs["Restroom, 1st floor"].ID, feedback.FormRef{Form: feedback.FormHygiene}, "Restroom door"),
		demoPoster(ws.ID, locs["Coffee shop"].ID, feedback.FormRef{Form: feedback.FormReview, ReviewID: review.ID}, "Counter"),
		demoPoster(ws.ID, locs["Lobby"].ID, feedback.FormRef{Form: feedback.FormSurvey, SurveyID: survey.ID}, "Entrance"),
	}
	for _, p := range posters {
		if err := store.CreatePoster(ctx, p); err != nil {
			return nil, err
		}
	}
	defer clock.Set(time.Time{})
	return ws, seedSubmissions(ctx, store, ws.ID, posters, survey, clock)
}

func demoPoster(ws, loc string, ref feedback.FormRef, label string) *server.Poster {
	p := &server.Poster{WorkspaceID: ws}
	p.LocationID, p.FormRef, p.Label = loc, ref, label
	return p
}

// seedForms creates and activates a review and a survey.
func seedForms(ctx context.Context, store server.Store, ws string) (*feedback.Review, *feedback.Survey, error) {
	review := &feedback.Review{Title: "How was your visit to our coffee shop?"}
	if err := store.CreateReview(ctx, ws, review); err != nil {
		return nil, nil, err
	}
	survey := &feedback.Survey{Title: "Visitor survey", Questions: demoQuestions()}
	if err := store.CreateSurvey(ctx, ws, survey); err != nil {
		return nil, nil, err
	}
	active := feedback.StatusActive
	review, err := store.UpdateReview(ctx, ws, review.ID, feedback.ReviewInput{Status: &active})
	if err != nil {
		return nil, nil, err
	}
	survey, err = store.UpdateSurvey(ctx, ws, survey.ID, feedback.SurveyInput{Status: &active})
	return review, survey, err
}

func demoQuestions() []feedback.Question {
	en := func(s string) feedback.Labels { return feedback.Labels{"en": s} }
	return []feedback.Question{
		{ID: "overall", Type: feedback.QuestionRating, Required: true, Labels: feedback.Labels{"en": "How was your visit?", "de": "Wie war Ihr Besuch?"}},
		{ID: "recommend", Type: feedback.QuestionNPS, Labels: en("How likely are you to recommend us to a friend?")},
		{ID: "purpose", Type: feedback.QuestionSingleChoice, Labels: en("Why did you come today?"), Options: []feedback.Option{
			{ID: "work", Labels: en("Work")}, {ID: "visit", Labels: en("Visiting")}, {ID: "delivery", Labels: en("Delivery")}}},
		{ID: "liked", Type: feedback.QuestionMultiChoice, Labels: en("What did you like?"), Options: []feedback.Option{
			{ID: "staff", Labels: en("Staff")}, {ID: "signage", Labels: en("Signage")}, {ID: "cleanliness", Labels: en("Cleanliness")}}},
		{ID: "return", Type: feedback.QuestionYesNo, Labels: en("Will you come again?")},
		{ID: "remarks", Type: feedback.QuestionText, Labels: en("Anything else?")},
	}
}

// seedSubmissions stores a few days' worth of example feedback, each
// stored when it was captured.
func seedSubmissions(ctx context.Context, store server.Store, ws string, posters []*server.Poster, survey *feedback.Survey, clock *seedClock) error {
	now := time.Now().UTC()
	for i := range 40 {
		at := feedback.NewTime(now.Add(-time.Duration(i) * 97 * time.Minute))
		clock.Set(at.Time)
		h := &feedback.HygieneSubmission{ID: feedback.NewIDAt(at.Time), Rating: 1 + rand.IntN(5), LocationID: posters[0].LocationID,
			PosterID: posters[0].ID, Tags: []string{}, Language: "en", Source: feedback.SourceQR, CapturedAt: at}
		if h.Rating <= 2 {
			h.Tags = []string{feedback.TagNoPaper}
		}
		if _, err := store.AddHygiene(ctx, ws, h, []byte(h.ID)); err != nil {
			return err
		}
	}
	for i := range 8 {
		at := feedback.NewTime(now.Add(-time.Duration(i) * 5 * time.Hour))
		clock.Set(at.Time)
		r := &feedback.ReviewResponse{ID: feedback.NewIDAt(at.Time), ReviewID: posters[1].ReviewID, LocationID: posters[1].LocationID,
			PosterID: posters[1].ID, Rating: 3 + rand.IntN(3), Comment: fmt.Sprintf("Demo comment %d", i+1),
			Language: "en", Source: feedback.SourceQR, CapturedAt: at}
		if _, err := store.AddReviewResponse(ctx, ws, r, []byte(r.ID)); err != nil {
			return err
		}
	}
	for i := range 5 {
		at := feedback.NewTime(now.Add(-time.Duration(i) * 7 * time.Hour))
		clock.Set(at.Time)
		r := &feedback.SurveyResponse{ID: feedback.NewIDAt(at.Time), SurveyID: survey.ID, LocationID: posters[2].LocationID,
			PosterID: posters[2].ID, Answers: map[string]any{"overall": 4 + i%2, "return": true, "liked": []string{"staff"}},
			Language: "en", Source: feedback.SourceQR, CapturedAt: at}
		if _, err := store.AddSurveyResponse(ctx, ws, r, []byte(r.ID)); err != nil {
			return err
		}
	}
	return nil
}
