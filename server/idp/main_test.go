package idp_test

import (
	"testing"

	"github.com/feedbackhq/feedback/server/idp"
	"github.com/feedbackhq/feedback/server/internal/pgtest"
)

func TestMain(m *testing.M) {
	idp.UseCheapHashes()
	pgtest.Main(m)
}
