package webhook_test

import (
	"testing"

	"github.com/feedbackhq/feedback/server/internal/pgtest"
)

// TestMain drops the PostgreSQL template database after the tests, when
// no other test process uses it.
func TestMain(m *testing.M) { pgtest.Main(m) }
