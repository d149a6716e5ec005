// Command feedbackd runs the feedback collection service and administers
// it: serve (the default), migrate, workspace, token, user and demo.
// Run "feedbackd help" for the subcommands and their flags.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	m := NewMain()
	m.Stdout, m.Stderr = os.Stdout, os.Stderr
	if err := m.Run(ctx, os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "feedbackd:", err)
		os.Exit(1)
	}
}
