package dashboard

import (
	"slices"
	"testing"
	"time"

	"github.com/feedbackhq/feedback/shared/feedback"
)

func TestAlertPaths(t *testing.T) {
	for _, tt := range []struct {
		path, route, param string
	}{
		{"/w/demo/alerts", "alerts", ""},
		{"/w/demo/alerts/rules", "alert-rules", ""},
		{"/w/demo/alerts/01a20f37-8734-7b53-a44e-3b3ed23b155b", "alert", "01a20f37-8734-7b53-a44e-3b3ed23b155b"},
		{"/w/demo/alerts/a/b", "", ""},
		{"/w/demo/alerts/", "", ""},
	} {
		_, r, param, ok := parsePathParam(tt.path)
		if !ok || routeName(r) != tt.route || param != tt.param {
			t.Errorf("parsePathParam(%q) = %s, %q, %v; want %s, %q", tt.path, routeName(r), param, ok, tt.route, tt.param)
		}
	}
	if got := WorkspacePages(); !slices.Contains(got, "alerts/{id}") || !slices.Contains(got, "alerts/rules") {
		t.Errorf("WorkspacePages() = %v; want the alert's page as alerts/{id}, and the rules", got)
	}
}

func TestParseEmails(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want []string
		ok   bool
	}{
		{"", []string{}, true},
		{"a@example.com, b@example.org\nc@example.net;", []string{"a@example.com", "b@example.org", "c@example.net"}, true},
		{"a@example.com not-an-address", nil, false},
		{"a@b@example.com", nil, false},
		{"a@localhost", nil, false},
	} {
		got, ok := parseEmails(tt.in)
		if ok != tt.ok || (ok && !slices.Equal(got, tt.want)) {
			t.Errorf("parseEmails(%q) = %v, %v; want %v, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

func TestRuleFormInput(t *testing.T) {
	f := newRuleForm()
	f.name, f.count, f.window, f.emails = " Dirty washrooms ", "3", "10", "facilities@example.com"
	in, ok := f.input()
	if !ok || *in.Name != "Dirty washrooms" || *in.Kind != feedback.RuleLowRatings || *in.Count != 3 || *in.Rating != 2 ||
		*in.WindowMinutes != 10 || in.Average != nil || in.Tag != nil || len(*in.Emails) != 1 {
		t.Errorf("input() = %+v, %v (errors %v); want the low-ratings rule", in, ok, f.errs)
	}

	f = editRuleForm(feedback.AlertRule{ID: "r1", Name: "Soap", Kind: feedback.RuleTagReported, Count: 2, Tag: "no soap",
		WindowMinutes: 60, CooldownMinutes: 30, Emails: []string{}})
	f.tag, f.window = " ", "0"
	if in, ok := f.input(); ok || in.Kind != nil || f.errs["tag"] == "" || f.errs["window_minutes"] == "" || f.errs["rating"] != "" {
		t.Errorf("input() = %v with errors %v; want the tag and the window refused, and no kind for an edit", ok, f.errs)
	}

	f.setErrs(map[string]string{"emails[1]": "must be an email address"})
	if f.errs["emails"] != "must be an email address" {
		t.Errorf("the service's reason of one address shows at %v; want the emails", f.errs)
	}
}

func TestInsertAlert(t *testing.T) {
	base := time.Date(2026, 11, 24, 20, 0, 0, 0, time.UTC)
	at := func(min int) feedback.Alert {
		return feedback.Alert{ID: string(rune('a' + min)), TriggeredAt: feedback.NewTime(base.Add(time.Duration(min) * time.Minute))}
	}
	list := []feedback.Alert{at(5), at(3), at(1)}
	list = insertAlert(list, at(4))
	list = insertAlert(list, at(6))
	list = insertAlert(list, at(0))
	var ids string
	for _, a := range list {
		ids += a.ID
	}
	if ids != "gfedba" {
		t.Errorf("the alerts' order is %q, want newest first", ids)
	}
}

func TestSpanText(t *testing.T) {
	secs := func(s float64) *float64 { return &s }
	for _, tt := range []struct {
		in   *float64
		want string
	}{
		{nil, "—"}, {secs(0.4), "0 s"}, {secs(42), "42 s"}, {secs(299), "5 min"},
		{secs(2*3600 + 5*60 + 10), "2 h 5 min"}, {secs(3 * 86400), "3.0 days"},
	} {
		if got := spanText(tt.in); got != tt.want {
			t.Errorf("spanText(%v) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
