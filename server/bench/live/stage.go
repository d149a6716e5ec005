package main

import (
	"context"
	"fmt"
	"log"

	"github.com/feedbackhq/feedback/server/bench/outside"
)

// stage is what the scenarios share: feedbackd's build, the database
// with its workspaces, PostgreSQL pinned, and the instances running now.
type stage struct {
	*outside.Stage
	c       config
	tenants []tenant
}

// setUp builds feedbackd, creates the database with its workspaces and
// pins PostgreSQL.
func setUp(ctx context.Context, c config) (_ *stage, err error) {
	log.Print("building feedbackd")
	st, err := outside.NewStage("livebench", "github.com/feedbackhq/feedback/server/cmd/feedbackd")
	if err != nil {
		return nil, err
	}
	defer st.CloseOnError(&err)
	s := &stage{Stage: st, c: c}
	if s.DB, err = outside.CreateDatabase(ctx, c.admin, "feedback_live"); err != nil {
		return nil, err
	}
	key := outside.SetServerEnv(s.DB.URL)
	if s.tenants, err = provision(ctx, s.DB.URL, key, c.workspaces); err != nil {
		return nil, err
	}
	s.Pinned, err = outside.PinPostgres(ctx, s.DB.URL, c.serverCPU)
	return s, err
}

// start runs n feedbackd instances on the database, pinned to the
// server CPUs. Each scenario starts its own and stops them
// (StopServers), so that one's sockets and memory do not weigh on the
// next.
func (s *stage) start(n int) ([]*outside.Proc, error) {
	procs := make([]*outside.Proc, n)
	for i := range procs {
		p, err := s.Start(s.c.serverCPU, "feedbackd", "--addr", "serve", "--log-level", "warn")
		if err != nil {
			return nil, fmt.Errorf("start feedbackd: %w", err)
		}
		procs[i] = p
	}
	return procs, nil
}
