package offline

import (
	"context"
	"time"

	"github.com/feedbackhq/feedback/shared/client"
)

// Over returns a [Sender] that sends through t (in the browser,
// client.Fetch), reading when a rate limit ends from the answer's
// headers (see [ResetAt]).
func Over(t client.Transport) Sender { return transport{t} }

type transport struct{ t client.Transport }

// Send implements [Sender].
func (s transport) Send(ctx context.Context, method, url string, headers map[string]string, body []byte) (Response, error) {
	res, err := s.t.RoundTrip(ctx, &client.Request{Method: method, URL: url, Header: headers, Body: body})
	if err != nil {
		return Response{}, err
	}
	reset := ResetAt(time.Now(), res.Header.Get("Retry-After"), res.Header.Get("X-RateLimit-Reset"))
	return Response{Status: res.Status, Reset: reset, Body: res.Body}, nil
}
