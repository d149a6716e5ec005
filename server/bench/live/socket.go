package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/coder/websocket"

	"github.com/feedbackhq/feedback/shared/feedback"
)

// dialTimeout bounds one socket's dial and its live.ready.
const dialTimeout = 30 * time.Second

// dial opens a live socket with a Bearer token and waits for its
// live.ready: from then on the socket receives every new event.
func dial(ctx context.Context, addr, token string) (*websocket.Conn, error) {
	ctx, cancel := context.WithTimeout(ctx, dialTimeout)
	defer cancel()
	c, _, err := websocket.Dial(ctx, "ws://"+addr+"/api/v1/live", &websocket.DialOptions{
		HTTPHeader: http.Header{"Authorization": {"Bearer " + token}}})
	if err != nil {
		return nil, err
	}
	_, b, err := c.Read(ctx)
	var ready feedback.LiveControl
	if err == nil {
		err = json.Unmarshal(b, &ready)
	}
	if err == nil && ready.Type != feedback.LiveReady {
		err = fmt.Errorf("the first message is %s, not %s", b, feedback.LiveReady)
	}
	if err != nil {
		c.CloseNow()
		return nil, err
	}
	return c, nil
}

// target says where socket j connects: an instance's address and a
// workspace's token.
type target func(j int) (addr, token string)

// dialAll opens n sockets with the given number of concurrent dialers
// and returns them with the time from the first dial to the last
// live.ready. The first failure closes what was opened and is returned.
func dialAll(ctx context.Context, n, dialers int, to target) ([]*websocket.Conn, time.Duration, error) {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	conns := make([]*websocket.Conn, n)
	jobs := make(chan int)
	var wg sync.WaitGroup
	begin := time.Now()
	for range dialers {
		wg.Go(func() {
			for j := range jobs {
				addr, token := to(j)
				c, err := dial(ctx, addr, token)
				if err != nil {
					cancel(fmt.Errorf("socket %d on %s: %w", j+1, addr, err))
					continue
				}
				conns[j] = c
			}
		})
	}
feed:
	for j := range n {
		select {
		case jobs <- j:
		case <-ctx.Done():
			break feed
		}
	}
	close(jobs)
	wg.Wait()
	took := time.Since(begin)
	if err := context.Cause(ctx); err != nil {
		closeAll(conns)
		return nil, 0, err
	}
	return conns, took, nil
}

// closeAll closes the sockets at once, without a closing handshake.
func closeAll(conns []*websocket.Conn) {
	for _, c := range conns {
		if c != nil {
			c.CloseNow()
		}
	}
}
