package oidcfed_test

import (
	"testing"

	"github.com/feedbackhq/feedback/server/internal/pgtest"
)

func TestMain(m *testing.M) { pgtest.Main(m) }
