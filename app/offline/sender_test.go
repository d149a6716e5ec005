package offline

import (
	"context"
	"testing"
	"time"

	"github.com/feedbackhq/feedback/shared/client"
)

// transportFunc is a client.Transport made of a function.
type transportFunc func(*client.Request) *client.Response

func (f transportFunc) RoundTrip(_ context.Context, r *client.Request) (*client.Response, error) {
	return f(r), nil
}

// TestOverReadsTheReset: the sender hands the request to the transport
// as it is and reads when a rate limit ends from the answer's headers.
func TestOverReadsTheReset(t *testing.T) {
	var got *client.Request
	s := Over(transportFunc(func(r *client.Request) *client.Response {
		got = r
		return &client.Response{Status: 429, Header: client.Header{"retry-after": "30", "x-ratelimit-reset": "1795000000"}, Body: []byte(`{}`)}
	}))
	before := time.Now()
	res, err := s.Send(context.Background(), "POST", "/kiosk/sync", map[string]string{"Authorization": "Bearer k"}, []byte(`{"a":1}`))
	if err != nil || res.Status != 429 || string(res.Body) != `{}` {
		t.Fatalf("Send = %+v, %v", res, err)
	}
	if got.Method != "POST" || got.URL != "/kiosk/sync" || got.Header["Authorization"] != "Bearer k" || string(got.Body) != `{"a":1}` {
		t.Errorf("the transport got %+v", got)
	}
	if wait := res.Reset.Sub(before); wait < 29*time.Second || wait > 31*time.Second {
		t.Errorf("Reset in %v; want 30 s from Retry-After", wait)
	}
}
