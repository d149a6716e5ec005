package auth_test

import (
	"flag"
	"io"
	"log/slog"
	"testing"

	"github.com/feedbackhq/feedback/server/internal/pgtest"
)

// TestMain silences the example provider's request log (it logs through
// slog's default logger) unless -v is given, and releases the PostgreSQL
// template at the end.
func TestMain(m *testing.M) {
	flag.Parse()
	if !testing.Verbose() {
		slog.SetDefault(slog.New(slog.NewTextHandler(io.Discard, nil)))
	}
	pgtest.Main(m)
}
