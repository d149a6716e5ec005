//go:build !(js && wasm)

package client_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/feedbackhq/feedback/shared/client"
	"github.com/feedbackhq/feedback/shared/feedback"
)

func TestProblemAndRateLimit(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer fbk_x" || r.URL.Path != "/api/v1/review/abc" {
			t.Errorf("request %s %s with %q", r.Method, r.URL.Path, r.Header.Get("Authorization"))
		}
		w.Header().Set("X-RateLimit-Limit", "1000")
		w.Header().Set("X-RateLimit-Remaining", "0")
		w.Header().Set("X-RateLimit-Reset", "1795000000")
		w.Header().Set("Content-Type", "application/problem+json")
		w.WriteHeader(http.StatusTooManyRequests)
		w.Write([]byte(`{"type":"urn:feedback:problem:rate_limited","status":429,"code":"rate_limited","detail":"slow down","request_id":"r1","invalid_params":[]}`))
	}))
	defer srv.Close()
	c := client.New(srv.URL+"/", "fbk_x")
	var out feedback.Review
	res, err := c.Do(context.Background(), "GET", "/api/v1/review/abc", nil, &out)
	var p *feedback.Problem
	if !errors.As(err, &p) || p.Code != feedback.ERateLimited || p.Status != 429 || p.RequestID != "r1" {
		t.Fatalf("err = %v; want the decoded problem", err)
	}
	if res.RateLimit.Limit != 1000 || res.RateLimit.Remaining != 0 || !res.RateLimit.Reset.Equal(time.Unix(1795000000, 0)) {
		t.Errorf("rate limit = %+v", res.RateLimit)
	}
}

func TestNonProblemError(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "bad gateway", http.StatusBadGateway)
	}))
	defer srv.Close()
	_, err := client.New(srv.URL, "").Reviews(context.Background(), feedback.ListParams{Page: 2, PerPage: 10})
	var p *feedback.Problem
	if !errors.As(err, &p) || p.Status != 502 || p.Detail != "bad gateway" {
		t.Errorf("err = %#v; want a problem with status 502 and the body as detail", err)
	}
}
