package outside

import (
	"log"
	"os"
	"path/filepath"
)

// Stage is what a benchmark from outside sets up and must take down
// again, also after a failure or an interrupt: a directory with the
// binaries, a database, PostgreSQL pinned and the servers it started.
type Stage struct {
	Dir    string    // the built binaries, removed by Close
	DB     *Database // dropped by Close; nil on SQLite
	Pinned *Pinned   // restored by Close
	procs  []*Proc
}

// NewStage builds the packages, named by import path, into a new
// temporary directory.
func NewStage(name string, pkgs ...string) (*Stage, error) {
	dir, err := os.MkdirTemp("", name)
	if err != nil {
		return nil, err
	}
	if err := build(dir, pkgs...); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	return &Stage{Dir: dir}, nil
}

// Start runs the built binary name pinned to the CPU list cpus, with
// args and then addrFlag and a free loopback address, and waits until
// it accepts connections (30 s at most); its output goes to stderr.
// Close stops it.
func (s *Stage) Start(cpus, name, addrFlag string, args ...string) (*Proc, error) {
	p, err := start(cpus, filepath.Join(s.Dir, name), addrFlag, args...)
	if err == nil {
		s.procs = append(s.procs, p)
	}
	return p, err
}

// StopServers kills the servers started so far.
func (s *Stage) StopServers() {
	for _, p := range s.procs {
		p.Stop()
	}
	s.procs = nil
}

// Close stops the servers, gives PostgreSQL's processes back their
// CPUs, drops the database and removes the binaries.
func (s *Stage) Close() {
	s.StopServers()
	s.Pinned.Restore()
	if s.DB != nil {
		if err := s.DB.Drop(); err != nil {
			log.Printf("drop database %s: %v", s.DB.Name, err)
		}
	}
	os.RemoveAll(s.Dir)
}

// CloseOnError closes the stage when *err is set: a set-up function
// defers it so that a failure half-way leaves nothing behind.
func (s *Stage) CloseOnError(err *error) {
	if *err != nil {
		s.Close()
	}
}
