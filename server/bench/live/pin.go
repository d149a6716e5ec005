package main

import (
	"fmt"
	"os"
	"os/exec"
	"syscall"
)

// pinnedEnv marks the process that pinSelf started, with its CPU list.
const pinnedEnv = "FEEDBACK_LIVEBENCH_CPU"

// pinSelf runs this program again under taskset on the CPU list cpus,
// in the same process (exec), unless it already runs so. Re-executing,
// rather than pinning the running threads, makes the Go runtime size
// GOMAXPROCS to those CPUs from the start, so the load generator's
// goroutines do not contend for a CPU with threads it cannot use.
func pinSelf(cpus string) error {
	if os.Getenv(pinnedEnv) == cpus {
		return nil
	}
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	taskset, err := exec.LookPath("taskset")
	if err != nil {
		return err
	}
	env := append(os.Environ(), pinnedEnv+"="+cpus)
	args := append([]string{"taskset", "-c", cpus, exe}, os.Args[1:]...)
	return fmt.Errorf("exec taskset: %w", syscall.Exec(taskset, args, env))
}

// raiseFileLimit raises this process's soft limit on open files to its
// hard limit, which must leave room for need sockets (and the servers'
// own, which they raise themselves, as every Go program does).
func raiseFileLimit(need int) error {
	var l syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &l); err != nil {
		return err
	}
	if l.Max < uint64(need) {
		return fmt.Errorf("the hard limit on open files is %d, below the %d sockets asked for (raise it with ulimit -Hn, or lower -idle)", l.Max, need)
	}
	l.Cur = l.Max
	return syscall.Setrlimit(syscall.RLIMIT_NOFILE, &l)
}
