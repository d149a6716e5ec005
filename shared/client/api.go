package client

import (
	"context"
	"net/url"
	"strconv"
	"time"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// list fetches one page of a list endpoint.
func list[T any](ctx context.Context, c *Client, path string, p feedback.ListParams) (*feedback.Page[T], error) {
	var page feedback.Page[T]
	_, err := c.Do(ctx, "GET", withQuery(c.api(path), p.Values()), nil, &page)
	return &page, err
}

// call sends one request and decodes the answer into a new T.
func call[T any](ctx context.Context, c *Client, method, path string, in any) (*T, error) {
	var out T
	_, err := c.Do(ctx, method, c.api(path), in, &out)
	return &out, err
}

// Hygiene lists hygiene submissions filtered by p.From, p.To and p.LocationID.
func (c *Client) Hygiene(ctx context.Context, p feedback.ListParams) (*feedback.Page[feedback.HygieneSubmission], error) {
	return list[feedback.HygieneSubmission](ctx, c, "/hygiene", p)
}

// Reviews lists reviews.
func (c *Client) Reviews(ctx context.Context, p feedback.ListParams) (*feedback.Page[feedback.Review], error) {
	return list[feedback.Review](ctx, c, "/review", p)
}

// CreateReview creates a draft review.
func (c *Client) CreateReview(ctx context.Context, title string) (*feedback.Review, error) {
	return call[feedback.Review](ctx, c, "POST", "/review", feedback.ReviewInput{Title: &title})
}

// Review gets a review.
func (c *Client) Review(ctx context.Context, id string) (*feedback.Review, error) {
	return call[feedback.Review](ctx, c, "GET", "/review/"+url.PathEscape(id), nil)
}

// UpdateReview changes a review's title or status.
func (c *Client) UpdateReview(ctx context.Context, id string, in feedback.ReviewInput) (*feedback.Review, error) {
	return call[feedback.Review](ctx, c, "PATCH", "/review/"+url.PathEscape(id), in)
}

// ReviewResponses lists a review's responses filtered by p.From and p.To.
func (c *Client) ReviewResponses(ctx context.Context, id string, p feedback.ListParams) (*feedback.Page[feedback.ReviewResponse], error) {
	return list[feedback.ReviewResponse](ctx, c, "/review/"+url.PathEscape(id)+"/responses", p)
}

// Surveys lists surveys.
func (c *Client) Surveys(ctx context.Context, p feedback.ListParams) (*feedback.Page[feedback.Survey], error) {
	return list[feedback.Survey](ctx, c, "/surveys", p)
}

// CreateSurvey creates a draft survey.
func (c *Client) CreateSurvey(ctx context.Context, title string, qs []feedback.Question) (*feedback.Survey, error) {
	return call[feedback.Survey](ctx, c, "POST", "/surveys", feedback.SurveyInput{Title: &title, Questions: &qs})
}

// Survey gets a survey.
func (c *Client) Survey(ctx context.Context, id string) (*feedback.Survey, error) {
	return call[feedback.Survey](ctx, c, "GET", "/surveys/"+url.PathEscape(id), nil)
}

// UpdateSurvey changes a survey.
func (c *Client) UpdateSurvey(ctx context.Context, id string, in feedback.SurveyInput) (*feedback.Survey, error) {
	return call[feedback.Survey](ctx, c, "PATCH", "/surveys/"+url.PathEscape(id), in)
}

// SurveyResponses lists a survey's responses filtered by p.From and p.To.
func (c *Client) SurveyResponses(ctx context.Context, id string, p feedback.ListParams) (*feedback.Page[feedback.SurveyResponse], error) {
	return list[feedback.SurveyResponse](ctx, c, "/surveys/"+url.PathEscape(id)+"/responses", p)
}

// Locations lists locations.
func (c *Client) Locations(ctx context.Context, p feedback.ListParams) (*feedback.Page[feedback.Location], error) {
	return list[feedback.Location](ctx, c, "/locations", p)
}

// CreateLocation creates a location.
func (c *Client) CreateLocation(ctx context.Context, name, description string) (*feedback.Location, error) {
	return call[feedback.Location](ctx, c, "POST", "/locations", feedback.LocationInput{Name: &name, Description: &description})
}

// DeleteLocation deletes a location and revokes its posters.
func (c *Client) DeleteLocation(ctx context.Context, id string) error {
	_, err := c.Do(ctx, "DELETE", c.api("/locations/"+url.PathEscape(id)), nil, nil)
	return err
}

// CreatePoster creates a poster for a location's form.
func (c *Client) CreatePoster(ctx context.Context, locationID string, in feedback.PosterInput) (*feedback.Poster, error) {
	return call[feedback.Poster](ctx, c, "POST", "/locations/"+url.PathEscape(locationID)+"/posters", in)
}

// RevokePoster revokes a poster.
func (c *Client) RevokePoster(ctx context.Context, id string) (*feedback.Poster, error) {
	return call[feedback.Poster](ctx, c, "POST", "/posters/"+url.PathEscape(id)+"/revoke", nil)
}

// CreateWebhook subscribes url to events.
func (c *Client) CreateWebhook(ctx context.Context, in feedback.WebhookInput) (*feedback.WebhookSubscription, error) {
	return call[feedback.WebhookSubscription](ctx, c, "POST", "/webhooks", in)
}

// Events returns up to limit events after sequence number after.
func (c *Client) Events(ctx context.Context, after int64, limit int) (*feedback.EventList, error) {
	q := url.Values{"after": {strconv.FormatInt(after, 10)}, "limit": {strconv.Itoa(limit)}}
	var out feedback.EventList
	_, err := c.Do(ctx, "GET", withQuery(c.api("/events"), q), nil, &out)
	return &out, err
}

// CreatePairingCode makes a code that pairs a kiosk to a location's form.
func (c *Client) CreatePairingCode(ctx context.Context, in feedback.PairingCodeInput) (*feedback.PairingCode, error) {
	return call[feedback.PairingCode](ctx, c, "POST", "/kiosks/pairing-codes", in)
}

// Kiosks lists the workspace's kiosks, revoked ones included.
func (c *Client) Kiosks(ctx context.Context, p feedback.ListParams) (*feedback.Page[feedback.Kiosk], error) {
	return list[feedback.Kiosk](ctx, c, "/kiosks", p)
}

// Summary counts what visitors submitted from from (inclusive) to to
// (exclusive), per location.
func (c *Client) Summary(ctx context.Context, from, to time.Time) (*feedback.Summary, error) {
	q := url.Values{feedback.ParamFrom: {from.UTC().Format(time.RFC3339Nano)}, feedback.ParamTo: {to.UTC().Format(time.RFC3339Nano)}}
	var out feedback.Summary
	_, err := c.Do(ctx, "GET", withQuery(c.api("/summary"), q), nil, &out)
	return &out, err
}
