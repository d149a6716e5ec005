package outside

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"
)

// Pinned is a set of processes pinned by PinPostgres, with the affinity
// each had before.
type Pinned struct {
	postmaster int
	masks      map[string]string // pid → taskset's hexadecimal mask
}

// PinPostgres pins the processes of the PostgreSQL server that dsn
// reaches — its postmaster, whose affinity the backends it forks later
// inherit, and every child it has now — to the CPU list cpus. It pins
// only that server (other clusters on the machine keep their CPUs); a
// server whose processes are not on this machine cannot be pinned and
// is an error.
func PinPostgres(ctx context.Context, dsn, cpus string) (*Pinned, error) {
	conn, err := connect(ctx, dsn)
	if err != nil {
		return nil, err
	}
	defer conn.Close(ctx) // the backend must live until its parent is found
	var backend int
	if err := conn.QueryRow(ctx, "SELECT pg_backend_pid()").Scan(&backend); err != nil {
		return nil, err
	}
	post, err := parentOf(backend)
	if err != nil || comm(post) != "postgres" {
		return nil, fmt.Errorf("PostgreSQL's processes are not on this machine (backend %d not found), so they cannot be pinned", backend)
	}
	children, _ := exec.Command("pgrep", "-P", strconv.Itoa(post)).Output()
	p := &Pinned{postmaster: post, masks: map[string]string{}}
	for _, pid := range append([]string{strconv.Itoa(post)}, strings.Fields(string(children))...) {
		mask, err := affinity(pid)
		if err != nil {
			continue // a backend that has just exited
		}
		if exec.Command("taskset", "-a", "-p", "-c", cpus, pid).Run() == nil {
			p.masks[pid] = mask
		}
	}
	return p, nil
}

// Restore gives the pinned processes back the affinity they had.
func (p *Pinned) Restore() {
	if p == nil {
		return
	}
	for pid, mask := range p.masks {
		_ = exec.Command("taskset", "-a", "-p", mask, pid).Run()
	}
}

// CPUTime returns the processor time used so far by the postmaster
// and its children alive now (a backend that exits takes its share
// along, but the servers' pooled connections last).
func (p *Pinned) CPUTime() time.Duration {
	children, _ := exec.Command("pgrep", "-P", strconv.Itoa(p.postmaster)).Output()
	total, _ := CPUTime(p.postmaster)
	for _, pid := range strings.Fields(string(children)) {
		n, _ := strconv.Atoi(pid)
		t, _ := CPUTime(n)
		total += t
	}
	return total
}

// affinity returns a process's CPU mask as taskset prints it
// ("pid 42's current affinity mask: 3").
func affinity(pid string) (string, error) {
	out, err := exec.Command("taskset", "-p", pid).Output()
	if err != nil {
		return "", err
	}
	i := strings.LastIndex(string(out), ": ")
	if i < 0 {
		return "", fmt.Errorf("taskset -p %s: %q", pid, out)
	}
	return strings.TrimSpace(string(out[i+2:])), nil
}

// parentOf returns the parent of a process, from /proc/pid/stat.
func parentOf(pid int) (int, error) {
	f, err := stat(pid)
	if err != nil {
		return 0, err
	}
	return strconv.Atoi(f[1])
}

// comm returns a process's command name.
func comm(pid int) string {
	b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/comm", pid))
	return strings.TrimSpace(string(b))
}
