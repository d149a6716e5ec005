package auth_test

import (
	"flag"
	"io"
	"log/slog"
	"os"
	"testing"
)

// TestMain silences the example provider's request log (it logs through
// slog's default logger) unless -v is given.
func TestMain(m *testing.M) {
	flag.Parse()
	if !testing.Verbose() {
		slog.SetDefault(slog.New(slog.NewTextHandler(io.Discard, nil)))
	}
	os.Exit(m.Run())
}
