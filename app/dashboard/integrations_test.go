package dashboard

import (
	"strings"
	"testing"

	"github.com/feedbackhq/feedback/shared/feedback"
)

func TestIntegrationsRoutes(t *testing.T) {
	for path, want := range map[string]string{
		"/w/demo/integrations/tokens":   "tokens",
		"/w/demo/integrations/webhooks": "webhooks",
		"/w/demo/integrations":          "",
	} {
		if _, r, ok := parsePath(path); !ok || routeName(r) != want {
			t.Errorf("parsePath(%q) = %v, %v; want route %q", path, routeName(r), ok, want)
		}
	}
}

// TestIntegrationsByRole: a page shows the buttons that change something
// only to the roles the API lets change it: tokens to platform owners,
// webhooks to admins and owners.
func TestIntegrationsByRole(t *testing.T) {
	hook := feedback.WebhookSubscription{ID: "w1", URL: "https://hooks.example.com/h", Events: []string{"*"}, SecretPrefix: "whsec_abcdef"}
	for _, tt := range []struct {
		role             string
		tokens, webhooks []string // what the pages show
		notTokens        []string // what the tokens page does not show
		notWebhooks      []string
	}{
		{role: feedback.RoleViewer,
			tokens: []string{"Only a platform owner"}, notTokens: []string{"token-create"},
			webhooks: []string{"Delivery log", "can read the webhooks"}, notWebhooks: []string{"webhook-create", "Send test event", "Rotate secret", "Delete", "Disable"}},
		{role: feedback.RoleAdmin,
			tokens: []string{"Only a platform owner"}, notTokens: []string{"token-create"},
			webhooks: []string{"webhook-create", "Send test event", "Rotate secret", "Disable", "Delete"}, notWebhooks: []string{"can read the webhooks"}},
		{role: feedback.RoleOwner,
			tokens: []string{"token-create"}, notTokens: []string{"Only a platform owner"},
			webhooks: []string{"webhook-create", "Send test event"}},
	} {
		ws := &feedback.Membership{Slug: "demo", Name: "Demo", Role: tt.role}
		check(t, tt.role+" tokens", render(t, &tokensPage{Workspace: ws}), tt.tokens, tt.notTokens)
		p := &webhooksPage{Workspace: ws, items: []feedback.WebhookSubscription{hook}, loaded: true}
		check(t, tt.role+" webhooks", render(t, p), tt.webhooks, tt.notWebhooks)
	}
}

func check(t *testing.T, what, html string, want, not []string) {
	t.Helper()
	for _, s := range want {
		if !strings.Contains(html, s) {
			t.Errorf("%s: lacks %q", what, s)
		}
	}
	for _, s := range not {
		if strings.Contains(html, s) {
			t.Errorf("%s: shows %q", what, s)
		}
	}
}
