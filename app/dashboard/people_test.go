package dashboard

import (
	"testing"
	"time"

	"github.com/feedbackhq/feedback/shared/feedback"
)

func TestPeopleRoutes(t *testing.T) {
	for path, want := range map[string]string{"/w/demo/people": "people", "/w/demo/audit": "audit"} {
		slug, r, ok := parsePath(path)
		if !ok || slug != "demo" || r == nil || r.name != want {
			t.Errorf("parsePath(%q) = %q, %v, %v; want demo, the %s page", path, slug, r, ok, want)
		}
	}
}

func TestInWords(t *testing.T) {
	for d, want := range map[time.Duration]string{
		30 * time.Second: "less than a minute", time.Minute: "1 minute", 59 * time.Minute: "59 minutes",
		-3 * time.Hour: "3 hours", 47 * time.Hour: "47 hours", 7*24*time.Hour - time.Second: "7 days",
	} {
		if got := inWords(d); got != want {
			t.Errorf("inWords(%v) = %q, want %q", d, got, want)
		}
	}
}

func TestAuditWords(t *testing.T) {
	ana := "u1"
	p := &auditPage{}
	p.learnNames([]feedback.AuditEntry{{Actor: "ana@example.com", ActorID: &ana}, {Actor: "token:x"}})
	for _, c := range []struct {
		e    feedback.AuditEntry
		want string
	}{
		{feedback.AuditEntry{Action: feedback.AuditMemberRole, Target: "user:u1", Details: map[string]string{"role": "admin"}}, "Made ana@example.com an admin"},
		{feedback.AuditEntry{Action: feedback.AuditMemberRemoved, Target: "user:u2"}, "Removed a user from the workspace"},
		{feedback.AuditEntry{Action: feedback.AuditTokenCreated, Details: map[string]string{"name": "Export"}}, `Created the API token "Export"`},
		{feedback.AuditEntry{Action: "thing.new"}, "thing.new"},
	} {
		if got := p.auditAction(c.e); got != c.want {
			t.Errorf("auditAction(%+v) = %q, want %q", c.e, got, c.want)
		}
	}
	for actor, want := range map[string]string{"cli": "The command line", "token:Export": `The API token "Export"`, "a@b.c": "a@b.c"} {
		if got := actorName(actor); got != want {
			t.Errorf("actorName(%q) = %q, want %q", actor, got, want)
		}
	}
	if _, ok := localDate("2026-13-01"); ok {
		t.Error("localDate took a 13th month")
	}
	if d, ok := localDate("2026-11-24"); !ok || d.Day() != 24 || d.Hour() != 0 {
		t.Errorf("localDate(2026-11-24) = %v, %v", d, ok)
	}
}

func TestRoleWords(t *testing.T) {
	if aRole(feedback.RoleAdmin) != "an admin" || aRole(feedback.RoleViewer) != "a viewer" {
		t.Error("aRole names the roles wrongly")
	}
	if otherRole(feedback.RoleAdmin) != feedback.RoleViewer || otherRole(feedback.RoleViewer) != feedback.RoleAdmin {
		t.Error("otherRole does not swap the roles")
	}
	if capital("viewer") != "Viewer" || capital("") != "" {
		t.Error("capital")
	}
}
