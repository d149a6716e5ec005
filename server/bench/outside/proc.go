package outside

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"
)

// Proc is a server process started by [Stage.Start].
type Proc struct {
	Name string // the binary's base name
	Addr string // host:port it listens on
	cmd  *exec.Cmd
	exit chan struct{} // closed when the process has exited
}

// start runs the binary bin as [Stage.Start] describes.
func start(cpus, bin, addrFlag string, args ...string) (*Proc, error) {
	addr, err := freeAddr()
	if err != nil {
		return nil, err
	}
	args = append([]string{"-c", cpus, bin}, append(args, addrFlag, addr)...)
	cmd := exec.Command("taskset", args...)
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	p := &Proc{Name: bin[strings.LastIndexByte(bin, '/')+1:], Addr: addr, cmd: cmd, exit: make(chan struct{})}
	go func() { _ = cmd.Wait(); close(p.exit) }()
	for range 300 {
		select {
		case <-p.exit:
			return nil, fmt.Errorf("%s exited before it listened: %v", p.Name, cmd.ProcessState)
		default:
		}
		if c, err := net.Dial("tcp", addr); err == nil {
			c.Close()
			return p, nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	p.Stop()
	return nil, fmt.Errorf("%s does not listen on %s", p.Name, addr)
}

// PID is the server's process id (taskset execs the binary in its own
// process).
func (p *Proc) PID() int { return p.cmd.Process.Pid }

// Stop kills the server and waits until it has exited.
func (p *Proc) Stop() {
	_ = p.cmd.Process.Kill()
	<-p.exit
}

// freeAddr returns a loopback address with a port nobody listens on.
func freeAddr() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer ln.Close()
	return ln.Addr().String(), nil
}

// Status returns a field of /proc/PID/status, such as "VmRSS", as
// written there ("22528 kB"), or "?" when it cannot be read.
func Status(pid int, field string) string {
	b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if v, ok := statusField(string(b), field); ok {
		return v
	}
	return "?"
}

// StatusKB returns a memory field of /proc/PID/status, such as "VmRSS",
// in kilobytes.
func StatusKB(pid int, field string) (int64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	return parseKB(string(b), field)
}

// statusField finds "field:" in the text of a status file.
func statusField(status, field string) (string, bool) {
	for l := range strings.Lines(status) {
		if v, ok := strings.CutPrefix(l, field+":"); ok {
			return strings.TrimSpace(v), true
		}
	}
	return "", false
}

// parseKB reads a field such as "VmRSS:\t  22528 kB".
func parseKB(status, field string) (int64, error) {
	v, ok := statusField(status, field)
	if n, found := strings.CutSuffix(v, " kB"); ok && found {
		return strconv.ParseInt(strings.TrimSpace(n), 10, 64)
	}
	return 0, fmt.Errorf("no %s in kB in the process status", field)
}

// userHZ is the unit of the times in /proc/PID/stat: Linux reports them
// in USER_HZ, 100 per second on every architecture Go supports.
const userHZ = 100

// CPUTime returns the processor time a process has used so far, user
// and system, all its threads included.
func CPUTime(pid int) (time.Duration, error) {
	f, err := stat(pid)
	if err != nil {
		return 0, err
	}
	return cpuTime(f)
}

// cpuTime adds utime and stime, the 14th and 15th fields of a stat line
// (11th and 12th after the state).
func cpuTime(f []string) (time.Duration, error) {
	if len(f) < 13 {
		return 0, fmt.Errorf("a process stat line of %d fields", len(f))
	}
	var ticks int64
	for _, s := range f[11:13] {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return 0, err
		}
		ticks += n
	}
	return time.Duration(ticks) * time.Second / userHZ, nil
}

// stat returns the fields of /proc/PID/stat that follow the command
// name, from the state on.
func stat(pid int) ([]string, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return nil, err
	}
	return statFields(string(b))
}

// statFields splits a stat line "pid (comm) state ppid ..." after the
// command name, which may hold spaces and parentheses: it ends at the
// last ")".
func statFields(line string) ([]string, error) {
	i := strings.LastIndexByte(line, ')')
	if i < 0 {
		return nil, fmt.Errorf("unexpected process stat line %q", line)
	}
	f := strings.Fields(line[i+1:])
	if len(f) < 2 {
		return nil, fmt.Errorf("unexpected process stat line %q", line)
	}
	return f, nil
}
