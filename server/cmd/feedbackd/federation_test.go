package main

import (
	"strings"
	"testing"
)

// TestFederationCommands adds, lists and removes a federation through
// the command line.
func TestFederationCommands(t *testing.T) {
	m := newTestMain(t, nil)
	out := m.run(t, "federation", "add", "--name", "Example Corp", "--issuer", "https://login.example.com",
		"--client-id", "feedback", "--client-secret", "s3cret", "--domain", "example.com,@Example.org", "--base-url", "https://fb.example")
	id := strings.Fields(out)[0]
	if !strings.Contains(out, "https://fb.example/idp/federation/callback") {
		t.Errorf("federation add printed:\n%s", out)
	}
	list := m.run(t, "federation", "list")
	if !strings.Contains(list, id) || !strings.Contains(list, "example.org") || strings.Contains(list, "s3cret") {
		t.Errorf("federation list printed:\n%s", list)
	}
	m.run(t, "federation", "remove", id)
	if list := m.run(t, "federation", "list"); strings.Contains(list, id) {
		t.Errorf("the removed federation is still listed:\n%s", list)
	}
}
